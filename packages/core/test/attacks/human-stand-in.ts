// The human of the suite: approves everything it is asked (blind approval is out of the defence's reach;
// see SECURITY.md) and keeps what it was shown, so the suite can check that every gated action it let
// through was confirmed after the untrusted content arrived, with that content named.
import type { ConfirmationDecision, ConfirmationRequest, PausedRun } from '../../src/index.js';

export interface ShownRequest {
  readonly callId: string;
  readonly toolName: string;
  readonly inputDigest: string;
  /** Absent when the circuit asked without provenance (an uninformed confirmation). */
  readonly request?: ConfirmationRequest;
}

export class ApprovingHuman {
  readonly shown: ShownRequest[] = [];

  decide(paused: PausedRun): ConfirmationDecision[] {
    return paused.pending.map((pending) => {
      this.shown.push({
        callId: pending.callId,
        toolName: pending.toolName,
        inputDigest: pending.inputDigest,
        ...(pending.request === undefined ? {} : { request: pending.request }),
      });
      return { callId: pending.callId, approved: true, inputDigest: pending.inputDigest };
    });
  }
}
