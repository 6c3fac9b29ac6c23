import type { DataFlowReport } from '../data-flow/data-flow-report.js';
import type { JsonValue } from '../json/json.js';
import type { Message, ToolResultPart, VouchedValue } from '../messages/messages.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { Usage } from '../messages/usage.js';
import type { ConfirmationRequest } from '../provenance/confirmation-request.js';
import type { TaintSource } from '../provenance/taint-source.js';
import type { StateSeal } from '../seal/state-seal.js';
import type { StepPlan } from '../step/step-settings.js';

/** An irreversible call held for the human's decision. */
export interface PendingCall {
  /** Position of the call in its turn (0-based), where its result goes in the reply. */
  readonly index: number;
  readonly callId: string;
  readonly toolName: string;
  /** The exact arguments to show the human. */
  readonly input: JsonValue;
  /** What the human's confirmation refers to: SHA-256 of the input's canonical JSON. */
  readonly inputDigest: string;
  /**
   * Present when untrusted output is in the run: what to show the human (the untrusted sources, the argument
   * values copied from them). Approving it grants a confirmation informed of its `taintDigest`.
   */
  readonly request?: ConfirmationRequest;
  /**
   * Present when the run's data-flow options had a say: which values came from quarantined documents (with
   * the values), where each trusted-only value was found, and with `refusedBy: 'trusted-only'` the paths
   * (`vouchFor`) whose values no trusted source holds. Such a call runs only if the human vouches for those
   * values in their decision (`ConfirmationDecision.vouched`); approving it without does not.
   */
  readonly dataFlow?: DataFlowReport;
}

/**
 * A run stopped on irreversible calls awaiting the human. Plain JSON data only, so it can be stored and
 * resumed in another process (durable storage is a separate concern). Store it with `canonicalJson` and read
 * it back with `JSON.parse`: that resumes exactly like the original at any depth (`JSON.stringify` throws
 * past about 10,000 levels of nesting, which a model's arguments can reach).
 *
 * It is resumed once (`resumeToken`), and with the loop's `seal` option it is sealed: `resumeLoop` refuses
 * it if anything in it was changed.
 */
export interface PausedRun {
  readonly version: 1;
  readonly runId: string;
  /** The session it belongs to: only the same session (and human) may resume it. */
  readonly sessionId: string;
  readonly humanId: string;
  /** 1-based number of the turn whose calls are pending (also the number of model turns so far). */
  readonly turn: number;
  /** The conversation up to and including the assistant turn that made the calls. */
  readonly messages: readonly Message[];
  readonly turns: readonly ModelTurn[];
  readonly usage: Usage;
  readonly pending: readonly PendingCall[];
  /** One slot per call of the turn, in call order: the result already computed, or `null` where pending. */
  readonly results: readonly (ToolResultPart | null)[];
  /** The run's untrusted sources so far (absent when provenance is off). */
  readonly provenance?: { readonly sources: readonly TaintSource[] };
  /** The deferred tools loaded so far, in load order (absent when the catalogue defers nothing). */
  readonly loadedTools?: readonly string[];
  /**
   * The plan of the paused turn (present for planned runs): a resumed call is checked against the tools that
   * were offered when the model made it (with `loadedTools`, what was loaded then), not against whatever a later step would offer.
   */
  readonly step?: StepPlan;
  /**
   * Random per pause: `resumeLoop` spends it (in the session's confirmation store, or the engine's run
   * store), so the same paused run is resumed once. Absent in states written before it existed, whose
   * digest stands in for it.
   */
  readonly resumeToken?: string;
  /** HMAC of everything above under the application's key (`LoopOptions.seal`); absent when unsealed. */
  readonly seal?: StateSeal;
}

/** The human's answer for one pending call. */
export interface ConfirmationDecision {
  readonly callId: string;
  readonly approved: boolean;
  /**
   * The digest of the arguments the human was shown. When given it must match the pending call's digest,
   * which proves the human approved these arguments and not others.
   */
  readonly inputDigest?: string;
  /** Passed to the model with a refusal (e.g. the human's reason). */
  readonly note?: string;
  /**
   * Values the human vouches for: typed or chosen by them in the confirmation (never copied from the
   * request), they join the run's trusted values. A call held for vouching (`dataFlow.refusedBy:
   * 'trusted-only'`) runs only if each value at its `vouchFor` paths is among them; only with `approved`.
   */
  readonly vouched?: readonly VouchedValue[];
}
