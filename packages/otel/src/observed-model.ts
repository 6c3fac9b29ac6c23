import type { Model, ModelRequest, ModelTurn, StreamEvent } from '@toolcircuit/core';
import { type InvocationObserver, now } from './loop-observer.js';

/** The next turn's number, shared by every model of an invocation (`prepareStep` may switch models). */
export interface TurnCounter {
  next: number;
}

/**
 * The model as the loop sees it, with each call observed: one model call per turn, numbered by `turns`
 * (the loop asks a model once per turn and never retries a turn itself).
 */
export function observedModel(model: Model, invocation: InvocationObserver, turns: TurnCounter): Model {
  const { provider, modelId } = model;
  const generate = (request: ModelRequest): Promise<ModelTurn> => {
    const observer = invocation.modelCall({
      turn: turns.next++,
      provider,
      modelId,
      at: now(),
      request,
      streaming: false,
    });
    let pending: Promise<ModelTurn>;
    try {
      pending = observer.within(() => model.generate(request));
    } catch (error) {
      observer.end({ at: now(), firstChunkAt: undefined, error });
      throw error;
    }
    return pending.then(
      (modelTurn) => {
        observer.end({ at: now(), firstChunkAt: undefined, modelTurn });
        return modelTurn;
      },
      (error: unknown) => {
        observer.end({ at: now(), firstChunkAt: undefined, error });
        throw error;
      },
    );
  };
  const source = model.stream?.bind(model);
  if (source === undefined) return { provider: model.provider, modelId: model.modelId, generate };
  return {
    provider: model.provider,
    modelId: model.modelId,
    generate,
    stream: (request) =>
      observedStream(
        source,
        request,
        invocation.modelCall({ turn: turns.next++, provider, modelId, at: now(), request, streaming: true }),
      ),
  };
}

async function* observedStream(
  source: (request: ModelRequest) => AsyncIterable<StreamEvent>,
  request: ModelRequest,
  observer: ReturnType<InvocationObserver['modelCall']>,
): AsyncGenerator<StreamEvent> {
  let firstChunkAt: number | undefined;
  let ended = false;
  const end = (outcome: { modelTurn?: ModelTurn; error?: unknown }) => {
    if (ended) return;
    ended = true;
    observer.end({ at: now(), firstChunkAt, ...outcome });
  };
  try {
    const iterator = observer.within(() => source(request)[Symbol.asyncIterator]());
    try {
      for (;;) {
        const next = await observer.within(() => iterator.next());
        if (next.done === true) break;
        const event = next.value;
        firstChunkAt ??= now();
        if (event.type === 'turn-end') end({ modelTurn: event.turn });
        else if (event.type === 'error') end({ error: event.error });
        yield event;
      }
    } finally {
      // The loop stopped reading (a stopped stream): close the model's stream as the loop would have.
      await iterator.return?.();
    }
    end({ error: new Error('the model stream ended without a turn-end event') });
  } catch (error) {
    end({ error });
    throw error;
  } finally {
    end({ error: new Error('the model stream was closed before the turn ended') });
  }
}
