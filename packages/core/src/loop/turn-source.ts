import type { Model, ModelRequest } from '../messages/model.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { StreamEvent } from '../messages/stream-events.js';
import { turnStreamEvents } from '../messages/turn-stream-events.js';

/**
 * Where the loop gets one model turn from: the whole turn from `generate` (`runLoop`, `resumeLoop`: nobody
 * reads the model's events, so none are made), or neutral events ending with `turn-end` or `error`
 * (`streamLoop`). Either way the same loop reads it (see `readModelTurn`).
 */
export type TurnSource =
  | { readonly kind: 'generate'; readonly generate: (request: ModelRequest) => Promise<ModelTurn> }
  | { readonly kind: 'stream'; readonly stream: (request: ModelRequest) => AsyncIterable<StreamEvent> }
  /** `generate`'s turn as the events a streaming adapter would have sent, all known at once (see below). */
  | { readonly kind: 'replay'; readonly events: (request: ModelRequest) => Promise<readonly StreamEvent[]> };

/** Each turn straight from `generate`. */
export function generatedTurns(model: Model): TurnSource {
  return { kind: 'generate', generate: (request) => model.generate(request) };
}

/**
 * Each turn from the model's `stream`, or from `generate` replayed as the events a streaming adapter would
 * have sent, so a streaming application gets one kind of stream from every adapter.
 */
export function streamedTurns(model: Model): TurnSource {
  const stream = model.stream;
  if (stream === undefined) {
    // A list, not an async generator: the events exist at once, and handing each one through a generator's
    // promise cost more than the rest of a replayed call's events (the loop reads them the same way).
    return { kind: 'replay', events: async (request) => turnStreamEvents(await model.generate(request)) };
  }
  return { kind: 'stream', stream: (request) => stream.call(model, request) };
}
