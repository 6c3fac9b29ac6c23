import type { ExecutionOutcome } from '../execute/execution-outcome.js';
import { canonicalJson } from '../json/canonical-json.js';
import type { JsonValue } from '../json/json.js';
import type { ToolCallPart } from '../messages/messages.js';
import { nodeCrypto } from '../platform/node-crypto.js';
import type { SealOptions } from '../seal/seal-options.js';
import { sealState } from '../seal/state-seal.js';
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

/** What a paused run's seal is for (see `sealState`). */
export const PAUSED_RUN_SEAL = 'paused-run';

/**
 * Everything `resumeLoop` needs to carry on after the human decided, as plain data, with a fresh resume
 * token; sealed when the run has a key.
 */
export function pausedRunOf(
  state: LoopState,
  session: Session,
  pending: readonly PendingCall[],
  outcomes: readonly ExecutionOutcome[],
  step: StepPlan | undefined,
  seal: SealOptions | undefined,
): PausedRun {
  const paused: PausedRun = {
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
    resumeToken: nodeCrypto().randomBytes(16).toString('base64url'),
  };
  return seal === undefined ? paused : sealState(PAUSED_RUN_SEAL, paused, seal.key);
}
