import { InvalidLoopOptionsError } from '../errors/invalid-loop-options-error.js';
import type { ModelChoice } from '../fallback/one-model.js';
import { type StopCondition, stopCondition } from '../step/stop-condition.js';
import type { ModelPrice } from './model-price.js';
import { runCost } from './run-cost.js';

export interface CostBudget {
  /** The most the run may spend, in US dollars. */
  readonly usd: number;
  /** The run's model (or list), so each turn is priced at the model that answered it. */
  readonly model: ModelChoice;
  /** Rows of your own, over the shipped table (see `PRICE_TABLE`). */
  readonly prices?: readonly ModelPrice[];
}

/**
 * Stops the run (status `stopped`) before the next model request once what it spent reaches `usd`, or as
 * soon as its cost is unknown (a model without a price): a budget cannot be kept blind. Checked between
 * steps, so the last request may overshoot it by one turn's cost.
 *
 * @example
 * await runLoop({ model, stopWhen: costBudget({ usd: 0.5, model }), ... });
 */
export function costBudget(budget: CostBudget): StopCondition {
  const { usd } = budget;
  if (!(Number.isFinite(usd) && usd > 0)) {
    throw new InvalidLoopOptionsError('stopWhen: costBudget', `got ${String(usd)} USD; use a positive amount.`);
  }
  return stopCondition(`costBudget($${usd})`, ({ turns }) => {
    const spent = runCost(turns, budget.model, budget.prices).total.usd;
    return spent === 'unknown' || spent >= usd;
  });
}
