import type { CellResult, MatrixCell } from '../measure/run-matrix.js';
import type { SystemId } from '../systems/bench-system.js';

/** A system's measured result in a cell (none when it was skipped there). */
export function resultOf(cell: MatrixCell | undefined, id: SystemId): CellResult | undefined {
  return cell?.results.find((result) => result.id === id && result.metrics !== undefined);
}
