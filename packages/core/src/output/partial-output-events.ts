import { type Eventually, isPromiseLike } from '../async/eventually.js';
import type { JsonObject } from '../json/json.js';
import { unfenced } from './answer-json.js';
import { parsePartialJson } from './partial-json.js';

/**
 * The answer as far as it has streamed (`streamLoop` with `output`): the partial JSON object of the turn's
 * text so far, emitted after each text delta that changed it. A preview only: the answer is validated when
 * the turn ends, and a turn's partials are superseded by a later turn's (a corrective turn, a retry).
 */
export interface LoopOutputPartialEvent {
  readonly type: 'output-partial';
  readonly runId: string;
  readonly turn: number;
  readonly partial: JsonObject;
}

/** The fields of the loop's events this reads; the rest passes through untouched. */
interface LoopEventLike {
  readonly type: string;
  readonly runId?: string;
  readonly turn?: number;
  readonly text?: string;
}

/**
 * Wraps a stream's emitter so that each text delta is followed by the answer's partial object when it
 * changed. The text is parsed whole at each delta (answers are small; a parse is microseconds per kilobyte).
 */
export function withPartialOutputs<E extends LoopEventLike>(
  emit: (event: E | LoopOutputPartialEvent, until?: AbortSignal) => Eventually<void>,
): (event: E | LoopOutputPartialEvent, until?: AbortSignal) => Eventually<void> {
  let text = '';
  let last = '';
  return (event, until) => {
    if (event.type === 'turn-start' || event.type === 'retry') {
      text = '';
      last = '';
    }
    const emitted = emit(event, until);
    if (event.type !== 'text-delta' || typeof event.text !== 'string') return emitted;
    text += event.text;
    const partial = parsePartialJson(unfenced(text.trimStart()));
    if (partial === null || typeof partial !== 'object' || Array.isArray(partial)) return emitted;
    const shown = JSON.stringify(partial);
    if (shown === last) return emitted;
    last = shown;
    const next: LoopOutputPartialEvent = {
      type: 'output-partial',
      runId: event.runId ?? '',
      turn: event.turn ?? 0,
      partial,
    };
    // Straight behind its delta (queued while the delta is unread): the producer may emit the next delta
    // without waiting, and the partial must still come right after the delta it follows.
    const following = emit(next, until);
    if (isPromiseLike(emitted) && emitted !== following) Promise.resolve(emitted).catch(ignore);
    return following;
  };
}

function ignore(): void {}
