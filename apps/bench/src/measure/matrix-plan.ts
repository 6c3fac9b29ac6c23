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
 * Which cells run, and how often. toolcircuit and the floor cost milliseconds per run, so they get many
 * rounds everywhere. The peers' cost grows with S² (one `@openai/agents` run at K=8 S=500 takes one to
 * three minutes on this machine), so they get fewer rounds as S grows, and at the longest S only the
 * K=1, 1-tool cell is timed here by default; `--full` times them all. Their K=8 S=500 run still happens
 * in the peak-RSS child processes, whose run time the RSS table reports.
 */
export function matrixPlan(options: BenchOptions): MatrixPlan {
  const cells: Scenario[] = [];
  for (const steps of options.steps) {
    for (const calls of CALLS) for (const tools of TOOLS) cells.push({ calls, steps, tools });
  }
  const longest = Math.max(...options.steps);
  const slowPeerCell = (scenario: Scenario) =>
    !options.quick && !options.full && scenario.steps === longest && (scenario.calls > 1 || scenario.tools > 1);
  return {
    cells,
    rounds(system, scenario) {
      const { steps } = scenario;
      if (!isPeer(system)) return steps <= 10 ? 9 : steps < longest ? 7 : 5;
      if (steps <= 10) return options.quick ? 3 : 5;
      if (slowPeerCell(scenario)) return 0;
      // The cell the ai goal is judged on gets three runs, so one busy moment cannot decide the verdict.
      const goal = options.goalCell;
      if (scenario.calls === goal.calls && steps === goal.steps && scenario.tools === goal.tools)
        return options.quick ? 1 : 3;
      if (steps < longest) return scenario.calls === 1 && scenario.tools === 1 && !options.quick ? 2 : 1;
      return 1;
    },
    skipReason: (_system, scenario) =>
      scenario.calls > 1 && scenario.tools === 1
        ? 'timed only in its RSS child (see below); --full times it here'
        : 'not timed by default; --full times it',
    warmUp(system, scenario) {
      return !isPeer(system) || scenario.steps <= 10;
    },
  };
}
