import type { CallEvent, JournalEntry, JsonValue, TaintSourceRef } from '@toolcircuit/core';
import type { CallGateRecord } from './trace-record.js';

/**
 * Why a call was gated, for its trace record: the untrusted sources in the run when the model asked for it,
 * and the argument values found in them. From the verdict's confirmation request (a held or refused call:
 * everything the human is shown) or else the call's journal entry (a call that ran after an informed
 * approval, or under an `allow` policy), whose flagged arguments keep their paths only: the values are read
 * back from the call's input. Values are content: only with `content`. `undefined`: the call was not gated.
 */
export function callGateOf(
  event: CallEvent,
  entry: JournalEntry | undefined,
  content: boolean,
): CallGateRecord | undefined {
  const journaled = entry?.provenance?.gate;
  const { verdict } = event;
  const request = verdict.kind === 'refused' || verdict.kind === 'awaiting_confirmation' ? verdict.request : undefined;
  if (request !== undefined) {
    return {
      gatedBecause: request.gatedBecause,
      ...(journaled === undefined ? {} : { policy: journaled.policy }),
      taintDigest: request.taintDigest,
      untrustedSources: request.untrustedSources.map(sourceOf),
      flaggedArguments: request.flaggedArguments.map((flagged) => ({
        path: flagged.path,
        foundIn: flagged.foundIn.map(sourceOf),
        ...(content ? { value: flagged.value } : {}),
      })),
    };
  }
  if (journaled === undefined) return undefined;
  return {
    gatedBecause: journaled.gatedBecause,
    policy: journaled.policy,
    taintDigest: journaled.taintDigest,
    untrustedSources: journaled.untrustedSources.map(sourceOf),
    flaggedArguments: journaled.flaggedArguments.map((flagged) => {
      const value = content ? scalarAt(event.call.input, flagged.path) : undefined;
      return { path: flagged.path, foundIn: flagged.foundIn.map(sourceOf), ...(value === undefined ? {} : { value }) };
    }),
  };
}

function sourceOf(source: TaintSourceRef): TaintSourceRef {
  return { turn: source.turn, callId: source.callId, toolName: source.toolName, outputDigest: source.outputDigest };
}

/** The string or number at a JSON Pointer (RFC 6901) in the input; `undefined` when there is none. */
function scalarAt(input: unknown, pointer: string): string | number | undefined {
  if (pointer !== '' && !pointer.startsWith('/')) return undefined;
  let value: unknown = input;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, JsonValue>)[key];
  }
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}
