import type { ToolResultPart } from '../messages/messages.js';
import type { MediaContentPart } from './media-part.js';
import { type ResultPartKind, resultPartKindOf } from './result-coverage.js';

/**
 * Something an adapter did to a tool result part because its provider cannot take it as it is, recorded
 * like a schema change: which provider, which call, which part, what happened and why.
 */
export interface ResultContentChange {
  readonly provider: string;
  readonly callId: string;
  readonly toolName: string;
  /** Position of the part in the result's content. */
  readonly index: number;
  readonly part: ResultPartKind;
  readonly mediaType?: string;
  readonly kind: 'moved' | 're-encoded' | 'placeholder' | 'dropped';
  readonly detail: string;
}

// Keyed by the result part the loop keeps in its history: a conversion that is cached and reused for later
// requests records its changes once, and the application reads them from the messages it already has.
const recorded = new WeakMap<ToolResultPart, ResultContentChange[]>();

/** For adapters: keeps what a conversion changed, once per provider and part (a repeated conversion adds nothing). */
export function recordResultContentChanges(result: ToolResultPart, changes: readonly ResultContentChange[]): void {
  if (changes.length === 0) return;
  const list = recorded.get(result) ?? [];
  for (const change of changes) {
    const seen = list.some(
      (other) => other.provider === change.provider && other.index === change.index && other.kind === change.kind,
    );
    if (!seen) list.push(Object.freeze({ ...change }));
  }
  recorded.set(result, list);
}

/**
 * What the adapters that sent this result changed in it (moved, re-encoded, replaced by a placeholder or
 * dropped), for every provider it went to; empty when every part went as it is.
 */
export function resultContentChangesOf(result: ToolResultPart): readonly ResultContentChange[] {
  return Object.freeze([...(recorded.get(result) ?? [])]);
}

/** For adapters: the change record for one image or file part of `result` at `index`. */
export function mediaPartChange(
  provider: string,
  result: ToolResultPart,
  index: number,
  part: MediaContentPart,
  kind: ResultContentChange['kind'],
  detail: string,
): ResultContentChange {
  return {
    provider,
    callId: result.callId,
    toolName: result.name,
    index,
    part: resultPartKindOf(part),
    mediaType: part.mediaType,
    kind,
    detail,
  };
}
