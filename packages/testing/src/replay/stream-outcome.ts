import type { Message, ModelRequest, ModelTurn, StreamEvent } from '@toolcircuit/core';

/** The turn a stream ended with; throws (naming what came instead) when its last event is not `turn-end`. */
export function streamTurnEnd(events: readonly StreamEvent[]): ModelTurn {
  const last = events.at(-1);
  if (last?.type !== 'turn-end')
    throw new Error(`expected the stream to end with turn-end, got ${JSON.stringify(last)}`);
  return last.turn;
}

/** The error a stream ended with; throws (naming what came instead) when its last event is not `error`. */
export function streamError(events: readonly StreamEvent[]): Error {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected the stream to end with error, got ${JSON.stringify(last)}`);
  return last.error;
}

/**
 * The request that follows a turn, as the loop would make it: the history, the turn as the assistant message
 * the loop keeps (its parts and its provider metadata: signatures, hosted items…), then the user's next text.
 * For checking what an adapter sends back of a turn.
 */
export function followUpRequest(request: ModelRequest, turn: ModelTurn, text: string): ModelRequest {
  const assistant: Message =
    turn.providerMetadata === undefined
      ? { role: 'assistant', content: turn.content }
      : { role: 'assistant', content: turn.content, providerMetadata: turn.providerMetadata };
  return { ...request, messages: [...request.messages, assistant, { role: 'user', content: text }] };
}
