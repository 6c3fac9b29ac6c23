import type { Phase } from '../../bench-options.js';
import type { Scenario } from '../../scenario/scenario.js';
import type { SystemSpec } from '../../systems/bench-system.js';
import type { BenchResults } from '../bench-results.js';

/**
 * One row of the goal table that opens the report (and BENCHMARKS.md). Each row lives in its own file in
 * this folder, named `*-goal.ts`, exporting one `GoalRow`: `loadGoalRows` finds it there, so adding a goal
 * is adding a file. A row only judges figures of the run it is handed; it never measures anything itself.
 */
export interface GoalRow {
  /** Where the row sits in the table (ascending); the rows first, earlier goals after 100. */
  readonly order: number;
  /** The path measured (Markdown), e.g. "`runLoop`, async tool, every cell". */
  readonly path: string;
  /** The goal (Markdown), e.g. "≤ 2× floor". */
  readonly goal: string;
  /** The phases whose figures it reads: with any left out (`--only=`) the row says so instead of judging. */
  readonly phases: readonly Phase[];
  judge(results: BenchResults): GoalVerdict;
}

export interface GoalVerdict {
  /** What was measured against the goal: the ratio, and where (worst cell, goal cell). */
  readonly measured: string;
  /** `undefined` when the run holds no figure for it. */
  readonly pass: boolean | undefined;
  /** The peer's own figure, beside (the floor's µs per call, `ai` 7's, the floor's peak RSS…). */
  readonly peer: string;
  /** A toolcircuit configuration to profile when the row fails. */
  readonly profile?: { readonly scenario: Scenario; readonly spec: SystemSpec };
}

export const NOT_MEASURED: GoalVerdict = Object.freeze({
  measured: 'not measured in this run',
  pass: undefined,
  peer: '',
});
