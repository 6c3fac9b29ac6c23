import { answeringModelOf, FALLBACK_PROVIDER } from '../fallback/answering-model.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { ModelPrice } from './model-price.js';
import { priceOf } from './price-of.js';
import { type Cost, turnCost } from './turn-cost.js';

/** A model as far as its price goes: its adapter family and id (`Model.provider`, `Model.modelId`). */
export interface PricedModel {
  readonly provider: string;
  readonly modelId: string;
}

/**
 * What one turn cost, at the price of the model that answered it: the one a fallback list marked on the
 * turn (see `answeringModelOf`), else `asked` (the model the turn was asked of). Unknown when neither says
 * (a list's turn without its mark), or when that model has no price.
 */
export function costOfTurn(turn: ModelTurn, asked: PricedModel | undefined, prices?: readonly ModelPrice[]): Cost {
  const answering = answeringModelOf(turn) ?? (asked?.provider === FALLBACK_PROVIDER ? undefined : asked);
  if (answering === undefined) {
    return { usd: 'unknown', why: 'a turn of a model list that does not say which model answered it' };
  }
  const { provider, modelId } = answering;
  return turnCost(turn.usage, priceOf(provider, modelId, prices), `${provider}:${modelId}`);
}
