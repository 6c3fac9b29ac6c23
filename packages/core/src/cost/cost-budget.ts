import { InvalidLoopOptionsError } from '../errors/invalid-loop-options-error.js';
import type { ModelChoice } from '../fallback/one-model.js';
import { type StopCondition, stopCondition } from '../step/stop-condition.js';
import type { ModelPrice } from './model-price.js';
import { runCost } from './run-cost.js';

export interface CostBudget {
  /** The most the run may spend, in US dollars. */
  readonly usd: number;
  /**
   * Not needed: each turn is priced at the model that answered it, with the run's `prices` (`StopContext.cost`).
   * Given (with or without `prices`), the turns are priced again here: each at its fallback list's mark,
   * else at this model.
   */
  readonly model?: ModelChoice;
  /** With `model`: rows of your own, over the shipped table, for this budget only (prefer the run's `prices`). */
  readonly prices?: readonly ModelPrice[];
}

/**
 * Stops the run (status `stopped`) before the next model request once what it spent reaches `usd`, or as
 * soon as its cost is unknown (a model without a price): a budget cannot be kept blind. Checked between
 * steps, so the last request may overshoot it by one turn's cost.
 *
 * @example
 * await runLoop({ model, stopWhen: costBudget({ usd: 0.5 }), ... });
 */
export function costBudget(budget: CostBudget): StopCondition {
  const { usd } = budget;
  if (!(Number.isFinite(usd) && usd > 0)) {
    throw new InvalidLoopOptionsError('stopWhen: costBudget', `got ${String(usd)} USD; use a positive amount.`);
  }
  if (budget.prices !== undefined && budget.model === undefined) {
    throw new InvalidLoopOptionsError(
      'stopWhen: costBudget',
      'its prices need the model they price; give the run the prices instead (the `prices` option).',
    );
  }
  const repriced = budget.model !== undefined;
  return stopCondition(`costBudget($${usd})`, ({ turns, cost }) => {
    const spent = (repriced ? runCost(turns, budget.model, budget.prices) : cost).total.usd;
    return spent === 'unknown' || spent >= usd;
  });
}
