import type { ExecutionOutcome } from '../execute/execution-outcome.js';
import { canonicalJson } from '../json/canonical-json.js';
import type { JsonValue } from '../json/json.js';
import type { ToolCallPart } from '../messages/messages.js';
import type { Session } from '../session/session.js';
import type { StepPlan } from '../step/step-settings.js';
import type { LoopState } from './loop-state.js';
import type { PausedRun, PendingCall } from './paused-run.js';

/** The calls of a turn held back for the human's confirmation, with their position in the turn. */
export function pendingCallsOf(calls: readonly ToolCallPart[], outcomes: readonly ExecutionOutcome[]): PendingCall[] {
  const pending: PendingCall[] = [];
  // Asked every turn: an index loop, not `entries()` (an iterator and a pair per call).
  for (let index = 0; index < calls.length; index += 1) {
    const call = calls[index] as ToolCallPart;
    const verdict = outcomes[index]?.verdict;
    if (verdict?.kind !== 'awaiting_confirmation') continue;
    pending.push({
      index,
      callId: call.id,
      toolName: call.name,
      // Only inputs that canonicalised can reach the confirmation check, so this cannot throw.
      input: JSON.parse(canonicalJson(call.input)) as JsonValue,
      inputDigest: verdict.inputDigest,
      ...(verdict.request === undefined ? {} : { request: verdict.request }),
      ...(verdict.dataFlow === undefined ? {} : { dataFlow: verdict.dataFlow }),
    });
  }
  return pending;
}

/** Everything `resumeLoop` needs to carry on after the human decided, as plain data. */
export function pausedRunOf(
  state: LoopState,
  session: Session,
  pending: readonly PendingCall[],
  outcomes: readonly ExecutionOutcome[],
  step?: StepPlan,
): PausedRun {
  return {
    version: 1,
    runId: state.runId,
    sessionId: session.id,
    humanId: session.humanId,
    turn: state.turns.length,
    messages: [...state.messages],
    turns: [...state.turns],
    usage: state.usage,
    pending,
    results: outcomes.map((outcome) => (outcome.verdict.kind === 'awaiting_confirmation' ? null : outcome.result)),
    ...(state.provenance === undefined ? {} : { provenance: { sources: state.provenance.sources() } }),
    ...(state.loadedTools === undefined ? {} : { loadedTools: state.loadedTools.names() }),
    ...(step === undefined ? {} : { step }),
  };
}
