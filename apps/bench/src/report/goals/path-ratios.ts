import type { PathCell } from '../../measure/measure-paths.js';
import type { CellResult } from '../../measure/run-matrix.js';
import type { RunMetrics } from '../../measure/run-metrics.js';
import { type Scenario, scenarioLabel } from '../../scenario/scenario.js';
import { type SystemId, type SystemSpec, sameSpec } from '../../systems/bench-system.js';
import { formatNumber, formatRatio } from '../format-table.js';

/**
 * toolcircuit against the floor in one configuration's cell: CPU time per call (medians over the rounds),
 * the figure the goals are judged on, since the machine is shared (see `RunMetrics.cpuPerCallUs`); the
 * same ratio of wall times beside it.
 */
export interface PathRatio {
  readonly scenario: Scenario;
  readonly ratio: number;
  readonly bestRatio: number;
  readonly wallRatio: number;
  readonly circuitUs: number;
  readonly floorUs: number;
}

/** CPU µs per call where measured, else wall. */
export function costOf(metrics: RunMetrics): number {
  return metrics.cpuPerCallUs ?? metrics.perCallUs;
}

export function bestCostOf(metrics: RunMetrics): number {
  return metrics.bestCpuPerCallUs ?? metrics.bestPerCallUs;
}

export function resultIn(cell: PathCell | undefined, id: SystemId): CellResult | undefined {
  return cell?.results.find((result) => result.id === id && result.metrics !== undefined);
}

export function specIn(cell: PathCell | undefined, spec: SystemSpec): CellResult | undefined {
  return cell?.results.find((result) => sameSpec(result.spec, spec) && result.metrics !== undefined);
}

/**
 * Every cell where the toolcircuit configuration `spec` ran: its µs per call over those of the floor with
 * the same kind of tool (or of `floorSpec`, a floor doing the option's work), timed in the same process.
 */
export function pathRatios(
  paths: readonly PathCell[],
  spec: SystemSpec,
  floorSpec: SystemSpec = { id: 'hand-written', tool: spec.tool ?? 'sync' },
): PathRatio[] {
  const ratios: PathRatio[] = [];
  // The `ai` packages' processes time only their package and the floor: they have no toolcircuit figure.
  for (const cell of paths) {
    const circuit = specIn(cell, spec)?.metrics;
    const floor = specIn(cell, floorSpec)?.metrics;
    if (circuit === undefined || floor === undefined) continue;
    ratios.push({
      scenario: cell.scenario,
      ratio: costOf(circuit) / costOf(floor),
      bestRatio: bestCostOf(circuit) / bestCostOf(floor),
      wallRatio: circuit.perCallUs / floor.perCallUs,
      circuitUs: costOf(circuit),
      floorUs: costOf(floor),
    });
  }
  return ratios;
}

export function worstOf(ratios: readonly PathRatio[]): PathRatio | undefined {
  let worst: PathRatio | undefined;
  for (const entry of ratios) if (worst === undefined || entry.ratio > worst.ratio) worst = entry;
  return worst;
}

export function sameScenario(a: Scenario, b: Scenario): boolean {
  return a.calls === b.calls && a.steps === b.steps && a.tools === b.tools;
}

/** "1.21–1.90× over 12 cells, worst at K=… (best runs: …)". */
export function describeRange(ratios: readonly PathRatio[]): string {
  const worst = worstOf(ratios);
  if (worst === undefined) return 'not measured';
  const least = Math.min(...ratios.map((entry) => entry.ratio));
  const worstBest = Math.max(...ratios.map((entry) => entry.bestRatio));
  const walls = ratios.map((entry) => entry.wallRatio);
  return (
    `${formatRatio(least)}–${formatRatio(worst.ratio)} over ${ratios.length} cells, worst at ${scenarioLabel(worst.scenario)}` +
    ` (best runs: worst ${formatRatio(worstBest)}; wall time: ${formatRatio(Math.min(...walls))}–${formatRatio(Math.max(...walls))})`
  );
}

/** The ratio and both figures at one cell, e.g. "1.40× at K=8 S=100 T=1 (12.0 against 8.6 µs/call)". */
export function describeAt(ratios: readonly PathRatio[], scenario: Scenario): string | undefined {
  const entry = ratios.find((candidate) => sameScenario(candidate.scenario, scenario));
  if (entry === undefined) return undefined;
  return (
    `${formatRatio(entry.ratio)} at ${scenarioLabel(scenario)} ` +
    `(${formatNumber(entry.circuitUs)} against ${formatNumber(entry.floorUs)} CPU µs/call)`
  );
}
