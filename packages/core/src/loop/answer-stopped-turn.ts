import type { ExecutionOutcome } from '../execute/execution-outcome.js';
import { executeCall } from '../execute/executor.js';
import type { ToolCallPart, ToolResultPart } from '../messages/messages.js';
import { executionContext } from './execution-context.js';
import type { LoopOptions } from './loop-options.js';
import type { LoopState } from './loop-state.js';

/** A turn whose calls were asked for and whose reply is not in the conversation yet. */
export interface OpenTurn {
  readonly turn: number;
  readonly calls: readonly ToolCallPart[];
  /** Filled in as each call settles. */
  readonly outcomes: (ExecutionOutcome | undefined)[];
}

/**
 * The application stopped reading while a turn was open. Calls that settled keep their result; calls that
 * never started, or were held for confirmation, go through the executor under an aborted signal, so they are
 * journaled as `aborted` and never run. The reply is added without hooks: the run is over, but its messages
 * stay a conversation a provider accepts (every call answered).
 */
export async function answerStoppedTurn(
  state: LoopState,
  open: OpenTurn,
  options: Omit<LoopOptions, 'messages'>,
): Promise<void> {
  const stopped = AbortSignal.abort(new DOMException('the application stopped the loop stream', 'AbortError'));
  const context = { ...executionContext(options, state.runId, open.turn, 'refuse'), signal: stopped };
  const results: ToolResultPart[] = [];
  for (const [index, call] of open.calls.entries()) {
    const outcome = open.outcomes[index];
    const settled = outcome !== undefined && outcome.verdict.kind !== 'awaiting_confirmation';
    results.push(settled ? outcome.result : (await executeCall(call, context)).result);
  }
  state.messages.push({ role: 'tool', content: results });
}
