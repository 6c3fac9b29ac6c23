import type { RetryPolicy } from '../loop/retry-policy.js';
import type { Model } from '../messages/model.js';
import { fallbackModel } from './fallback-model.js';

/** `LoopOptions.model`: one model, or a fallback list (the first answers; the next when it fails). */
export type ModelChoice = Model | readonly Model[];

/** Options whose model is one model: what the loop runs with once a list became a `fallbackModel`. */
export type WithOneModel<T extends { readonly model: ModelChoice }> = Omit<T, 'model'> & { readonly model: Model };

/**
 * Where a fallback list enters a run (started, streamed, resumed, continued): the list becomes one
 * `fallbackModel` with the run's retry policy, so the loop itself only ever sees one model. The same
 * options object when `model` is one model already.
 */
export function withOneModel<T extends { readonly model: ModelChoice; readonly retry?: RetryPolicy }>(
  options: T,
): WithOneModel<T> {
  if (!Array.isArray(options.model)) return options as WithOneModel<T>;
  return { ...options, model: oneModel(options.model, options.retry) };
}

/** The model a run asks: the model itself, or a list as one `fallbackModel` with the run's retry policy. */
export function oneModel(model: ModelChoice, retry?: RetryPolicy): Model {
  if (!Array.isArray(model)) return model as Model;
  return fallbackModel(model as readonly Model[], retry === undefined ? {} : { retry });
}
