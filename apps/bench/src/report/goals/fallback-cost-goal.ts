import type { FallbackCost } from '../../fallback/one-or-list.js';
import { type GoalRow, NOT_MEASURED } from './goal-row.js';

/** A fallback list that never fails may cost this many times the same run on one model. */
export const FALLBACK_COST_LIMIT = 1.1;

const money = (value: number | 'unknown') => (value === 'unknown' ? 'unknown' : `$${value.toFixed(6)}`);

function judgeFallback(fallback: FallbackCost | undefined) {
  if (fallback === undefined) return NOT_MEASURED;
  const ratio = fallback.pairedRatio;
  const sameCost = fallback.oneUsd === fallback.listUsd && fallback.oneUsd !== 'unknown';
  return {
    measured: `${ratio.toFixed(2)}× (median of ${fallback.rounds} paired rounds); ${fallback.listUs.toFixed(2)} vs ${fallback.oneUs.toFixed(2)} µs per turn (medians); cost ${money(fallback.listUsd)} vs ${money(fallback.oneUsd)}`,
    pass: Number.isFinite(ratio) && ratio <= FALLBACK_COST_LIMIT && sameCost,
    peer: `one model ${fallback.oneUs.toFixed(2)} µs per turn, ${money(fallback.oneUsd)}`,
  };
}

/**
 * A run given a fallback list whose first model never fails, against the same run on that model alone,
 * timed alternately in the same process: the list must add nothing measurable, and the run must cost the
 * same in dollars (`LoopResult.cost`). On the path an application takes: an adapter and its SDK.
 */
export const fallbackCostGoal: GoalRow = {
  order: 82,
  path: '`runLoop` on `[model, spare]` through the Anthropic adapter and SDK, the first never failing (100 turns of one call, in-process fetch)',
  goal: `≤ ${FALLBACK_COST_LIMIT}× the same run on one model, same \`LoopResult.cost\``,
  phases: ['fallback'],
  judge: ({ fallbackOverSdk }) => judgeFallback(fallbackOverSdk),
};

/**
 * The same with an in-process model that does no work of its own: what is left is the loop's cost and the
 * list's, so this row says what the list itself costs a turn.
 */
export const fallbackOwnCostGoal: GoalRow = {
  order: 83,
  path: '`runLoop` on `[model, spare]` with an in-process model (the list’s own cost), the first never failing (200 turns of one lookup)',
  goal: `≤ ${FALLBACK_COST_LIMIT}× the same run on one model, same \`LoopResult.cost\``,
  phases: ['fallback'],
  judge: ({ fallback }) => judgeFallback(fallback),
};
