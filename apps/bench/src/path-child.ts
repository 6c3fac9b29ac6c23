/**
 * Child process entry of the `paths` phase: times ONE configuration (one cell, a few systems) in a fresh
 * process and prints its results as one JSON line. `node --expose-gc dist/path-child.js '<configuration JSON>'`.
 * Warm-up first (the cell's first ten steps, untimed), then rounds alternating the systems, as the timing
 * phase does in its one process.
 */
import type { PathConfiguration } from './measure/path-plan.js';
import { type CellResult, runMatrix } from './measure/run-matrix.js';
import { warmUpSystems } from './measure/warm-up-systems.js';
import { sameSpec } from './systems/bench-system.js';
import { loadSystem } from './systems/load-system.js';

export interface PathChildReport {
  readonly results: readonly CellResult[];
}

const configuration = JSON.parse(process.argv[2] ?? '{}') as PathConfiguration & { readonly quick?: boolean };
const log = (line: string) => process.stderr.write(`${line}\n`);
const systems = await Promise.all(configuration.systems.map((entry) => loadSystem(entry.spec)));
const planned = (spec: (typeof systems)[number]['spec']) =>
  configuration.systems.find((entry) => sameSpec(entry.spec, spec));
const { scenario } = configuration;
await warmUpSystems(
  systems,
  configuration.quick === true ? { calls: 2_000, budgetMs: 1_000 } : { calls: 4_000, budgetMs: 1_500 },
  log,
  [{ ...scenario, steps: Math.min(scenario.steps, 10) }],
);
const [cell] = await runMatrix(
  systems,
  {
    cells: [scenario],
    rounds: (system) => planned(system.spec)?.rounds ?? 0,
    skipReason: () => 'not planned',
    warmUp: (system) => planned(system.spec)?.settle ?? false,
    repeat: (system) => planned(system.spec)?.repeat ?? 1,
  },
  log,
);
const report: PathChildReport = { results: cell?.results ?? [] };
process.stdout.write(`${JSON.stringify(report)}\n`);
