import { answeringModelOf } from '../fallback/answering-model.js';
import type { ModelChoice } from '../fallback/one-model.js';
import type { Model } from '../messages/model.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { ModelPrice } from './model-price.js';
import { priceOf } from './price-of.js';
import { addCost, type Cost, turnCost } from './turn-cost.js';

export interface RunCost {
  /** One per turn, in order. */
  readonly turns: readonly Cost[];
  readonly total: Cost;
}

/**
 * What a run's turns cost (`LoopResult.turns`, or `StopContext.turns`): each at the price of the model that
 * answered it — the one a fallback list marked on the turn, else `model` (the run's). A list given as
 * `model` with unmarked turns cannot say which model answered: those turns cost "unknown".
 */
export function runCost(turns: readonly ModelTurn[], model: ModelChoice, prices?: readonly ModelPrice[]): RunCost {
  let total: Cost = { usd: 0 };
  const costs = turns.map((turn) => {
    const answering = answeringModelOf(turn) ?? (Array.isArray(model) ? undefined : (model as Model));
    const cost =
      answering === undefined
        ? ({ usd: 'unknown', why: 'a turn of a model list that does not say which model answered it' } as const)
        : turnCost(
            turn.usage,
            priceOf(answering.provider, answering.modelId, prices),
            `${answering.provider}:${answering.modelId}`,
          );
    total = addCost(total, cost);
    return cost;
  });
  return { turns: costs, total };
}
