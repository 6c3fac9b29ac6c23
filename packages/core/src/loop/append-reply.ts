import { type Eventually, isPromiseLike } from '../async/eventually.js';
import type { ToolMessage, ToolResultPart } from '../messages/messages.js';
import type { LoopOptions } from './loop-options.js';
import type { LoopState } from './loop-state.js';

/** Adds the turn's one reply (every result, in call order) to the conversation and reports it. */
export function appendReply(
  state: LoopState,
  turn: number,
  outcomes: readonly { readonly result: ToolResultPart }[],
  options: Omit<LoopOptions, 'messages'>,
): Eventually<ToolMessage> {
  const message: ToolMessage = { role: 'tool', content: outcomes.map((outcome) => outcome.result) };
  state.messages.push(message);
  const observed = options.hooks?.onResult?.({ runId: state.runId, turn, message });
  // No callback made for the usual case of no hook (or one that answers at once).
  return isPromiseLike(observed) ? Promise.resolve(observed).then(() => message) : message;
}
