import type { Catalogue } from '../catalogue/catalogue.js';
import type { Model, ModelRequest } from '../messages/model.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { StreamEvent } from '../messages/stream-events.js';
import type { ContextPolicy } from './context-policy.js';
import { ContextShaper, type ShapedRun } from './context-shaper.js';

/**
 * Where a context policy enters the circuit: between the loop and the model. The loop gets its turns from
 * `sourceOf(model)`; with a policy, from `sourceOf` of the model as the policy sees it, which shapes each
 * request on its way (see `ContextShaper`) and hands each answer's usage back. The loop itself never sees
 * the shaped request: its messages, its result, a paused or interrupted run and the journal keep every result
 * whole.
 *
 * Being part of asking the model, a summary that fails fails that request: the loop reports it as it reports
 * a model error (the `error` event, `error.interrupted` for `continueLoop`), and retries it under the run's
 * `retry` policy when it is a retryable `ProviderError` (a summariser's own model call that hit a 429).
 *
 * Without a policy `sourceOf` is returned as it is: nothing is wrapped, nothing costs.
 */
export function withContextPolicy<Source>(
  sourceOf: (model: Model) => Source,
  run: ShapedRun,
  options: { readonly contextPolicy?: ContextPolicy; readonly catalogue: Catalogue },
): (model: Model) => Source {
  const policy = options.contextPolicy;
  if (policy === undefined) return sourceOf;
  // One per run (a `runCircuit`): its decisions and calibration belong to this run's requests.
  const shaper = new ContextShaper(policy, run, options.catalogue);
  return (model) => sourceOf(shapedModel(model, shaper));
}

/** The model as the policy sees it: the same model, each request shaped first, each answer's usage read. */
function shapedModel(model: Model, shaper: ContextShaper): Model {
  const shaped: Model = {
    provider: model.provider,
    modelId: model.modelId,
    generate: async (request) => {
      const turn: ModelTurn = await model.generate(await shaper.shape(request, model));
      shaper.answered(turn.usage);
      return turn;
    },
  };
  if (model.clearsToolResults !== undefined) Object.assign(shaped, { clearsToolResults: model.clearsToolResults });
  if (model.stream !== undefined)
    Object.assign(shaped, { stream: (request: ModelRequest) => shapedStream(model, request, shaper) });
  return shaped;
}

async function* shapedStream(model: Model, request: ModelRequest, shaper: ContextShaper): AsyncIterable<StreamEvent> {
  const events = (model.stream as NonNullable<Model['stream']>).call(model, await shaper.shape(request, model));
  for await (const event of events) {
    if (event.type === 'turn-end') shaper.answered(event.turn.usage);
    yield event;
  }
}
