import { type GoalRow, NOT_MEASURED } from './goal-row.js';

/** A fallback list that never fails may cost this many times the same run on one model. */
export const FALLBACK_COST_LIMIT = 1.1;

const money = (value: number | 'unknown') => (value === 'unknown' ? 'unknown' : `$${value.toFixed(6)}`);

/**
 * A run given a fallback list whose first model never fails, against the same run on that model alone,
 * timed alternately in the same process: the list must add nothing measurable, and the run must cost the
 * same in dollars (`LoopResult.cost`).
 */
export const fallbackCostGoal: GoalRow = {
  order: 82,
  path: '`runLoop` on `[model, spare]`, the first never failing (200 turns of one lookup, in-process model)',
  goal: `≤ ${FALLBACK_COST_LIMIT}× the same run on one model, same \`LoopResult.cost\``,
  phases: ['fallback'],
  judge: ({ fallback }) => {
    if (fallback === undefined) return NOT_MEASURED;
    const ratio = fallback.listUs / fallback.oneUs;
    const sameCost = fallback.oneUsd === fallback.listUsd && fallback.oneUsd !== 'unknown';
    return {
      measured: `${ratio.toFixed(2)}×; ${fallback.listUs.toFixed(2)} vs ${fallback.oneUs.toFixed(2)} µs per turn (median of ${fallback.rounds} rounds); cost ${money(fallback.listUsd)} vs ${money(fallback.oneUsd)}`,
      pass: Number.isFinite(ratio) && ratio <= FALLBACK_COST_LIMIT && sameCost,
      peer: `one model ${fallback.oneUs.toFixed(2)} µs per turn, ${money(fallback.oneUsd)}`,
    };
  },
};
