import type { BenchResults } from './bench-results.js';
import type { GoalRow, GoalVerdict } from './goals/goal-row.js';
import { loadGoalRows } from './goals/load-goal-rows.js';

export interface JudgedGoal {
  readonly row: GoalRow;
  readonly verdict: GoalVerdict;
}

/** Every goal row judged on one run's figures; a row whose phases the run left out says so. */
export async function judgeGoals(results: BenchResults): Promise<JudgedGoal[]> {
  return (await loadGoalRows()).map((row) => ({
    row,
    verdict: row.phases.every((phase) => results.options.phases.has(phase))
      ? row.judge(results)
      : { measured: `not measured: --only left out ${row.phases.join(', ')}`, pass: undefined, peer: '' },
  }));
}
