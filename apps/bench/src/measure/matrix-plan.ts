import type { BenchOptions } from '../bench-options.js';
import type { Scenario } from '../scenario/scenario.js';
import type { BenchSystem } from '../systems/bench-system.js';
import type { MatrixPlan } from './run-matrix.js';

const CALLS = [1, 8] as const;
const TOOLS = [1, 100] as const;

function isPeer(system: BenchSystem): boolean {
  return system.id === 'ai' || system.id === 'openai-agents';
}

/**
 * Which cells run, and how often. toolcircuit and the floor cost milliseconds, so they get many rounds
 * everywhere. The peers' cost grows with S² (at K=8 S=500 one run of `@openai/agents` takes over a
 * minute here), so they get fewer rounds as S grows, and the S=500 × 100-tool cells only with `--full`:
 * the 100-tool effect is a per-step cost, already measured at S=10 and S=100.
 */
export function matrixPlan(options: BenchOptions): MatrixPlan {
  const cells: Scenario[] = [];
  for (const steps of options.steps) {
    for (const calls of CALLS) for (const tools of TOOLS) cells.push({ calls, steps, tools });
  }
  const longest = Math.max(...options.steps);
  return {
    cells,
    rounds(system, scenario) {
      const { steps, calls, tools } = scenario;
      if (!isPeer(system)) return steps <= 10 ? 9 : steps < longest ? 7 : 5;
      if (steps <= 10) return options.quick ? 3 : 5;
      if (steps < longest) return calls === 1 && !options.quick ? 3 : 1;
      if (tools === 100 && !options.full && !options.quick) return 0;
      return 1;
    },
    skipReason: () => 'skipped: run with --full (several minutes)',
    warmUp(system, scenario) {
      return !isPeer(system) || scenario.steps <= 10;
    },
  };
}
