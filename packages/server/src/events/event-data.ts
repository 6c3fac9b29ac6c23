import type { LoopStreamEvent } from '@toolcircuit/core';

/**
 * What a reader gets of an event: the event as `streamLoop` yields it, except where it holds what is not
 * JSON or is not the reader's to see. An error is its name and message; `loop-end` says how the run stopped
 * (and its text) rather than carrying the whole result, whose paused state holds the run's resume token;
 * `error` leaves out the interrupted state (read the run for it).
 */
export function eventData(event: LoopStreamEvent): unknown {
  switch (event.type) {
    case 'loop-end': {
      const { status, text } = event.result;
      return { type: event.type, runId: event.runId, status, ...(text === '' ? {} : { text }) };
    }
    case 'error':
      return { type: event.type, runId: event.runId, turn: event.turn, error: errorData(event.error) };
    case 'retry':
      return { ...event, error: errorData(event.error) };
    default:
      return event;
  }
}

function errorData(error: Error): { readonly name: string; readonly message: string } {
  return { name: error.name, message: error.message };
}
