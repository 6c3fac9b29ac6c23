import { createScript, type Scenario } from '../scenario/scenario.js';
import type { BenchSystem } from '../systems/bench-system.js';
import { checkRecord, type Log } from './run-matrix.js';

export interface WarmUpBudget {
  /** Tool calls each system answers per warm-up conversation, at most… */
  readonly calls: number;
  /** …or this much time per system and conversation, whichever comes first. */
  readonly budgetMs: number;
}

/** The matrix's smallest conversations, with both catalogues: what every cell's code paths go through. */
const WARM_UP_CELLS: readonly Scenario[] = [
  { calls: 8, steps: 10, tools: 1 },
  { calls: 8, steps: 10, tools: 100 },
];

/**
 * Before the first timed cell, every system plays short conversations until it has answered `calls` calls
 * or spent `budgetMs`, untimed. Without it the first cells time whichever system V8 happens to optimise
 * first: a system with more code of its own on the call path stays longer in the interpreter, and its
 * first cells measured its warm-up, not its cost (toolcircuit read 37.7 µs per call at K=1 S=10 T=1 and
 * 12.7 at K=1 S=500 in the same run). A server that runs tool calls all day runs optimised code.
 */
export async function warmUpSystems(
  systems: readonly BenchSystem[],
  budget: WarmUpBudget,
  log: Log,
  cells: readonly Scenario[] = WARM_UP_CELLS,
): Promise<void> {
  for (const scenario of cells) {
    const script = createScript(scenario);
    const perRun = scenario.calls * scenario.steps;
    for (const system of systems) {
      const run = await system.prepare(script);
      const started = performance.now();
      let answered = 0;
      while (answered < budget.calls && performance.now() - started < budget.budgetMs) {
        checkRecord(system, script, await run.run());
        answered += perRun;
      }
      log(`  warm-up ${system.label.padEnd(22)} ${answered} calls in ${(performance.now() - started).toFixed(0)} ms`);
    }
  }
}
