import type { DecisionRecord, OutcomeUnknownRecord, RecoveryRecord, StartRecord } from '../journal/journal-record.js';
import type { ClaimRequest, DecisionInit } from './durable-store.js';
import type { CallRow, RunRow } from './store-backend.js';

// The journal records a store writes itself (the executor writes the `call` records).

export function decisionRecord(run: RunRow, request: ClaimRequest, decision: DecisionInit): DecisionRecord {
  return {
    kind: 'decision',
    at: request.claim.claimedAt,
    runId: run.runId,
    sessionId: run.sessionId,
    humanId: run.humanId,
    turn: request.turn,
    callId: decision.callId,
    toolName: decision.toolName,
    inputDigest: decision.inputDigest,
    approved: decision.approved,
    ...(decision.note === undefined ? {} : { note: decision.note }),
    workerId: request.claim.workerId,
  };
}

export function recoveryRecord(
  run: RunRow,
  request: ClaimRequest,
  recovery: NonNullable<ClaimRequest['recovery']>,
): RecoveryRecord {
  return {
    kind: 'recovery',
    at: request.claim.claimedAt,
    runId: run.runId,
    turn: request.turn,
    workerId: request.claim.workerId,
    ...(recovery.previousWorkerId === undefined ? {} : { previousWorkerId: recovery.previousWorkerId }),
    reason: recovery.reason,
  };
}

export function startRecord(run: RunRow, call: CallRow, at: string): StartRecord {
  return { kind: 'start', ...callMarkerFields(run, call, at) };
}

export function unknownOutcomeRecord(run: RunRow, call: CallRow, at: string, detail: string): OutcomeUnknownRecord {
  return { kind: 'outcome_unknown', ...callMarkerFields(run, call, at), detail };
}

/** What a start marker and an unknown outcome both say about the call, in the order they are written. */
function callMarkerFields(run: RunRow, call: CallRow, at: string): Omit<StartRecord, 'kind'> {
  return {
    at,
    runId: run.runId,
    turn: call.turn,
    callId: call.callId,
    toolName: call.toolName,
    inputDigest: call.inputDigest,
    workerId: run.claimWorker ?? 'unknown',
  };
}

/** Why a worker holding `token` may not write for this run, or undefined if it may. */
export function claimProblem(run: RunRow, token: string): string | undefined {
  if (run.claimToken !== token) {
    return run.claimWorker === null
      ? `its claim ended (the run is "${run.status}" now)`
      : `worker "${run.claimWorker}" claimed it at ${run.claimedAt ?? '?'}`;
  }
  if (run.status !== 'resuming') return `the run is "${run.status}" now, not resuming`;
  return undefined;
}
