import { LONG_RUN_BUDGET } from '../../context/play-long-run.js';
import { type GoalRow, NOT_MEASURED } from './goal-row.js';

const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** "openai chat (openai)" → "openai chat"; the Gemini backends by their SDK, which is what tells them apart. */
function shortName(label: string): string {
  const sdk = /\((@google\/[^)]+)\)/.exec(label)?.[1];
  return sdk ?? label.replace(/ \(.*\)$/, '');
}

/** The policy's own cost per turn may be this many times the hand-written floor's. */
export const POLICY_COST_LIMIT = 2;

/**
 * The context policy's rows, judged on the `context` phase: a 200-turn run of 20 KB results keeps every
 * request under the budget on all five backends, as the replay server counts each request it received; and
 * the policy's own CPU time per turn against a hand-written clearing pass timed in the same process.
 */
export const contextBudgetGoal: GoalRow = {
  order: 80,
  path: '`contextPolicy: { maxTokens: 100_000 }`, 200 turns of 20 KB results, all five backends (each through its SDK over the replay server, which counts each request body with o200k_base)',
  goal: `every request ≤ ${number(LONG_RUN_BUDGET)} tokens`,
  phases: ['context'],
  judge: ({ context }) => {
    if (context === undefined || context.runs.length === 0) return NOT_MEASURED;
    const worst = [...context.runs].sort((a, b) => b.maxTokens - a.maxTokens)[0];
    const over = context.runs.reduce((sum, run) => sum + run.overBudget, 0);
    return {
      measured:
        `largest request ${number(worst?.maxTokens ?? 0)} tokens ` +
        `(${context.runs.map((run) => `${shortName(run.backend)} ${number(run.maxTokens)}`).join(', ')}); ` +
        `${over} of ${context.runs.length * ((worst?.turns ?? 0) + 1)} requests over`,
      pass: over === 0,
      peer: `unshaped, the last request would hold ≈ ${number(worst?.unshapedTokens ?? 0)} tokens (estimate)`,
    };
  },
};

export const contextCostGoal: GoalRow = {
  order: 81,
  path: 'context policy, its own CPU time per turn (200 turns of 20 KB results, `runLoop`, in-process model)',
  goal: `≤ ${POLICY_COST_LIMIT}× a hand-written clearing pass`,
  phases: ['context'],
  judge: ({ context }) => {
    if (context === undefined) return NOT_MEASURED;
    const { cost } = context;
    const ratio = cost.policyUs / cost.floorUs;
    return {
      measured: `${number(cost.policyUs, 1)} µs per turn, ${number(ratio, 2)}× the floor (median of ${cost.rounds} rounds; the loop's own ${number(cost.loopUs, 1)} µs)`,
      pass: Number.isFinite(ratio) && ratio <= POLICY_COST_LIMIT,
      peer: `floor ${number(cost.floorUs, 1)} µs per turn`,
    };
  },
};
