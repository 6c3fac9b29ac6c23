import type { ModelChoice } from '../fallback/one-model.js';
import type { ModelTurn } from '../messages/model-turn.js';
import { costOfTurn } from './cost-of-turn.js';
import type { ModelPrice } from './model-price.js';
import { addCost, type Cost } from './turn-cost.js';

export interface RunCost {
  /** One per turn, in order. */
  readonly turns: readonly Cost[];
  /** Their sum: unknown as soon as one turn's is. */
  readonly total: Cost;
}

/**
 * What a run's turns cost (`LoopResult.turns`, or `StopContext.turns`): each at the price of the model that
 * answered it — the one a fallback list marked on the turn, else `model` (the run's). A list given as
 * `model` with unmarked turns, or no `model` for a turn that is not marked, cannot say which model answered:
 * those turns cost "unknown". A run's own figure is `LoopResult.cost`, priced as each turn was asked.
 */
export function runCost(turns: readonly ModelTurn[], model?: ModelChoice, prices?: readonly ModelPrice[]): RunCost {
  const asked =
    model === undefined || Array.isArray(model) ? undefined : (model as { provider: string; modelId: string });
  let total: Cost = { usd: 0 };
  const costs = turns.map((turn) => {
    const cost = costOfTurn(turn, asked, prices);
    total = addCost(total, cost);
    return cost;
  });
  return { turns: costs, total };
}
