import type { Model, ModelRequest } from './model.js';
import type { StreamEvent } from './stream-events.js';
import { turnStreamEvents } from './turn-stream-events.js';

/** Where the loop gets one model turn from, as neutral events ending with `turn-end` or `error`. */
export type TurnSource = (request: ModelRequest) => AsyncIterable<StreamEvent>;

/** Each turn from `generate`, replayed as the events a streaming adapter would have sent. */
export function generatedTurns(model: Model): TurnSource {
  return async function* generated(request) {
    yield* turnStreamEvents(await model.generate(request));
  };
}

/** Each turn from the model's `stream`, or from `generate` when the adapter does not stream. */
export function streamedTurns(model: Model): TurnSource {
  const stream = model.stream;
  if (stream === undefined) return generatedTurns(model);
  return (request) => stream.call(model, request);
}
