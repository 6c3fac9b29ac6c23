import type { ModelChoice } from '../fallback/one-model.js';
import type { ModelTurn } from '../messages/model-turn.js';
import { costOfTurn, type PricedModel } from './cost-of-turn.js';
import type { ModelPrice } from './model-price.js';
import { type RunCost, runCost } from './run-cost.js';
import { addCost, type Cost } from './turn-cost.js';

/**
 * A run's cost as the loop reads its turns (the cost seam): each turn priced once, when it arrives, at the
 * model it was asked of (or the one a fallback list says answered it), so the result, the journal and stop
 * conditions read the same figures, a model chosen per step by `prepareStep` included.
 */
export interface RunCostMeter {
  readonly prices: readonly ModelPrice[] | undefined;
  readonly turns: Cost[];
  total: Cost;
}

/**
 * A meter for a run; `earlier`: turns of the run read before (a resumed or continued run's), priced again
 * at their fallback list's mark, else at `model`, the run's (a model chosen per step then is not known).
 */
export function startRunCostMeter(
  prices: readonly ModelPrice[] | undefined,
  earlier: readonly ModelTurn[] = [],
  model?: ModelChoice,
): RunCostMeter {
  if (earlier.length === 0) return { prices, turns: [], total: { usd: 0 } };
  const { turns, total } = runCost(earlier, model, prices);
  return { prices, turns: [...turns], total };
}

/** Prices a turn just read (`asked`: the model the loop asked for it) and adds it to the run's total. */
export function meterTurn(meter: RunCostMeter, turn: ModelTurn, asked: PricedModel | undefined): Cost {
  const cost = costOfTurn(turn, asked, meter.prices);
  meter.turns.push(cost);
  meter.total = addCost(meter.total, cost);
  return cost;
}

/** A snapshot of the meter: later turns do not change it. */
export function runCostOf(meter: RunCostMeter): RunCost {
  return { turns: [...meter.turns], total: meter.total };
}
