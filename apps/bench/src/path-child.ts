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
// 16,000 calls: with 4,000 (or 1.5 s) V8 was still optimising toolcircuit's per-step functions (`turns`,
// `settleCalls`, the executor's `finish`…) during the first timed rounds of the K=1 cells (traced with
// --trace-opt), whose medians then read 1.8–4× where steady state is 1.5–1.6×. The floor, a few small
// functions, is optimised within the shorter warm-up; both get the same one.
await warmUpSystems(
  systems,
  configuration.quick === true ? { calls: 2_000, budgetMs: 1_000 } : { calls: 16_000, budgetMs: 5_000 },
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
