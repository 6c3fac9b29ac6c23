import { fileURLToPath } from 'node:url';
import type { PathChildReport } from '../path-child.js';
import { scenarioLabel } from '../scenario/scenario.js';
import type { PathConfiguration } from './path-plan.js';
import type { Log, MatrixCell } from './run-matrix.js';
import { spawnNode } from './spawn-node.js';

const CHILD = fileURLToPath(new URL('../path-child.js', import.meta.url));

/** One configuration's cell, timed in its own process. */
export interface PathCell extends MatrixCell {
  readonly name: string;
}

/**
 * The `paths` phase: one fresh `node --expose-gc` per configuration, one after the other (never two at
 * once: they would share the two cores), each alternating its systems round by round.
 */
export async function measurePaths(
  configurations: readonly PathConfiguration[],
  quick: boolean,
  cwd: string,
  log: Log,
): Promise<PathCell[]> {
  const cells: PathCell[] = [];
  for (const [index, configuration] of configurations.entries()) {
    const started = performance.now();
    const { stdout } = await spawnNode(['--expose-gc', CHILD, JSON.stringify({ ...configuration, quick })], cwd);
    const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as PathChildReport;
    cells.push({ name: configuration.name, scenario: configuration.scenario, results: report.results });
    log(
      `  ${String(index + 1).padStart(2)}/${configurations.length} ${configuration.name.padEnd(18)} ` +
        `${scenarioLabel(configuration.scenario).padEnd(16)} ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  return cells;
}
