import { type Eventually, isPromiseLike } from '../async/eventually.js';
import type { ToolMessage, ToolResultPart } from '../messages/messages.js';
import type { RunProvenance } from '../provenance/run-provenance.js';
import type { TaintSource } from '../provenance/taint-source.js';
import type { ResultEvent } from './loop-hooks.js';
import type { LoopOptions } from './loop-options.js';
import type { LoopState } from './loop-state.js';
import { withUntrustedSources } from './untrusted-sources-property.js';

/** Adds the turn's one reply (every result, in call order) to the conversation and reports it. */
export function appendReply(
  state: LoopState,
  turn: number,
  outcomes: readonly { readonly result: ToolResultPart }[],
  options: Omit<LoopOptions, 'messages'>,
): Eventually<ToolMessage> {
  const message: ToolMessage = { role: 'tool', content: outcomes.map((outcome) => outcome.result) };
  state.messages.push(message);
  const onResult = options.hooks?.onResult;
  if (onResult === undefined) return message;
  const observed = onResult(resultEventOf(state.runId, turn, message, state.provenance));
  // No callback made for the usual case of a hook that answers at once.
  return isPromiseLike(observed) ? Promise.resolve(observed).then(() => message) : message;
}

/** The reply's event; with provenance, its sources listed (and hashed) only when first read. */
function resultEventOf(
  runId: string,
  turn: number,
  message: ToolMessage,
  provenance: RunProvenance | undefined,
): ResultEvent {
  const event: ResultEvent = { runId, turn, message };
  if (provenance === undefined) return event;
  // Sources recorded later belong to later turns: filtering by turn is the list as it stands now.
  let listed: readonly TaintSource[] | undefined;
  return withUntrustedSources(event, () => {
    listed ??= provenance.sources().filter((source) => source.turn <= turn);
    return listed;
  });
}
