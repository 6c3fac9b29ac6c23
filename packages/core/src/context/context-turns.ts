import type { Catalogue } from '../catalogue/catalogue.js';
import type { LoopState } from '../loop/loop-state.js';
import type { TurnSource } from '../loop/turn-source.js';
import type { Model, ModelRequest } from '../messages/model.js';
import type { StreamEvent } from '../messages/stream-events.js';
import type { ContextPolicy } from './context-policy.js';
import { ContextShaper } from './context-shaper.js';

/**
 * Where a context policy enters the circuit: between the loop and the model. Each request the loop built
 * from the run's messages is shaped on its way to the model (see `ContextShaper`), and each answer's usage
 * goes back to the shaper. The loop itself never sees the shaped request: its messages, its result, a paused
 * or interrupted run and the journal keep every result whole.
 *
 * Being part of asking the model, a summary that fails fails that request: the loop reports it as it reports
 * a model error (the `error` event, `error.interrupted` for `continueLoop`), and retries it under the run's
 * `retry` policy when it is a retryable `ProviderError` (a summariser's own model call that hit a 429).
 *
 * Without a policy the loop's source is returned as it is: nothing is wrapped, nothing costs.
 */
export function withContextPolicy(
  sourceOf: (model: Model) => TurnSource,
  state: LoopState,
  options: { readonly contextPolicy?: ContextPolicy; readonly catalogue: Catalogue },
): (model: Model) => TurnSource {
  const policy = options.contextPolicy;
  if (policy === undefined) return sourceOf;
  // One per run (a `runCircuit`): its decisions and calibration belong to this run's requests.
  const shaper = new ContextShaper(policy, state, options.catalogue);
  return (model) => shapedSource(sourceOf(model), shaper, model);
}

function shapedSource(source: TurnSource, shaper: ContextShaper, model: Model): TurnSource {
  switch (source.kind) {
    case 'generate':
      return {
        kind: 'generate',
        generate: async (request) => {
          const turn = await source.generate(await shaper.shape(request, model));
          shaper.answered(turn.usage);
          return turn;
        },
      };
    case 'replay':
      return {
        kind: 'replay',
        events: async (request) => {
          const events = await source.events(await shaper.shape(request, model));
          for (const event of events) if (event.type === 'turn-end') shaper.answered(event.turn.usage);
          return events;
        },
      };
    case 'stream':
      return { kind: 'stream', stream: (request) => shapedStream(source.stream, request, shaper, model) };
  }
}

async function* shapedStream(
  stream: (request: ModelRequest) => AsyncIterable<StreamEvent>,
  request: ModelRequest,
  shaper: ContextShaper,
  model: Model,
): AsyncIterable<StreamEvent> {
  for await (const event of stream(await shaper.shape(request, model))) {
    if (event.type === 'turn-end') shaper.answered(event.turn.usage);
    yield event;
  }
}
