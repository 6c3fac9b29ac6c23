import type {
  InterruptedRun,
  Journal,
  JournalAppendDetail,
  JournalEntry,
  LoopResult,
  Message,
  ModelTurn,
  PausedRun,
  StateSeal,
  StepPlan,
  TaintSourceRef,
  ToolResultPart,
  Usage,
} from '@toolcircuit/core';
import type { JournalAnchor, JournalAnchorSink } from '../journal/journal-anchor.js';
import type { JournalKey } from '../journal/journal-key.js';
import type { JournalHead, JournalRow } from '../journal/journal-record.js';
import type { JournalVerification, VerifyJournalOptions } from '../journal/verify-journal.js';
import type { CatalogueFingerprint } from './catalogue-fingerprint.js';

/**
 * - `paused`: irreversible calls await the human; `resume` may claim it.
 * - `resuming`: a worker claimed it and is running it (see `claim`): `start` creates the run in this state,
 *   claimed by its worker, before the first call; `resume` and `recover` claim it.
 * - `interrupted`: the worker's run failed (provider down, store error); `recover` may continue it. When the
 *   model failed, the run's `interrupted` state is stored and `recover` asks the model again from it.
 * - `completed` / `max_turns` / `aborted`: finished, with `result`.
 */
export type RunStatus = 'paused' | 'resuming' | 'interrupted' | 'completed' | 'max_turns' | 'aborted';

/** Finished statuses, one per final loop status. */
export type FinishedRunStatus = 'completed' | 'max_turns' | 'aborted';

/**
 * Where a call of a claimed turn is (a call that needs no decision gets its row when it starts):
 * - `intended`: decided and recorded; the tool has not been started (safe to run after a crash).
 * - `started`: the tool was about to run; without a result it may or may not have run.
 * - `done`: its result is recorded.
 * - `unknown`: it had started when its worker stopped; it was answered "outcome unknown" and never re-run.
 */
export type CallState = 'intended' | 'started' | 'done' | 'unknown';

export interface RunCall {
  readonly turn: number;
  readonly callId: string;
  /** Position of the call in its turn. */
  readonly index: number;
  readonly toolName: string;
  readonly inputDigest: string;
  /** The human's decision; `true` for a call that needed none (it is recorded when it starts). */
  readonly approved: boolean;
  readonly note?: string;
  readonly state: CallState;
  /** The result for the model, once `done` or `unknown`. */
  readonly result?: ToolResultPart;
  /** The journal row that recorded the outcome. */
  readonly journalSeq?: number;
}

/** Who holds a run while it is `resuming` (kept on an `interrupted` run, for the operator). */
export interface RunClaim {
  /** Random per claim: every write of the worker names it, so a worker that lost its claim cannot write. */
  readonly token: string;
  readonly workerId: string;
  readonly claimedAt: string;
  /** Until then, `recover` leaves the run to its worker (unless forced). */
  readonly leaseExpiresAt: string;
}

/**
 * The last turn whose calls started, stored (with the start markers of its first calls, in their
 * transaction) before any of them runs: `recover` goes on from it. Turn 0 is the run as `start` created
 * it, before the model's first turn. Plain JSON, like core's `PausedRun`.
 */
export interface StartedTurn {
  readonly version: 1;
  readonly runId: string;
  /** The turn whose calls started (0: none yet). */
  readonly turn: number;
  /** The conversation up to and including the assistant turn that made the calls (the input at turn 0). */
  readonly messages: readonly Message[];
  /** The model turns played, this one included. */
  readonly turns: readonly ModelTurn[];
  readonly usage: Usage;
  /** The plan of the turn (present for planned runs): its calls are checked against what it offered. */
  readonly step?: StepPlan;
  /**
   * The run's untrusted sources when the turn's calls started (absent when provenance is off, and in states
   * written before they were kept: `recover` then counts every tool result of `messages` as untrusted).
   * Kept without their texts: a source's text is made from its result, which `messages` holds already, so
   * the state rewritten each turn does not hold every untrusted output twice.
   */
  readonly provenance?: { readonly sources: readonly TaintSourceRef[] };
  /** HMAC of everything above under the runner's `seal` key (kind `started-turn`); absent when unsealed. */
  readonly seal?: StateSeal;
}

/** What a started turn's seal is for (see core's `sealState`). */
export const STARTED_TURN_SEAL = 'started-turn';

export interface RunRecord {
  readonly runId: string;
  readonly sessionId: string;
  readonly humanId: string;
  readonly status: RunStatus;
  /** Increases with every change of the run; claims compare it so they act on the state they checked. */
  readonly revision: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The paused state (while paused, resuming or interrupted). */
  readonly paused?: PausedRun;
  /**
   * SHA-256 of the state column as it was written (`paused`, `{ interrupted }`, or a started turn's head,
   * whose chain digests cover its item rows): a state altered in the store no longer matches.
   */
  readonly pausedDigest?: string;
  /**
   * Everything played when the model failed (core's `InterruptedRun`, from `error.interrupted`): set on an
   * `interrupted` run instead of `paused`; `recover` continues from it without re-running any call.
   */
  readonly interrupted?: InterruptedRun;
  /**
   * The last turn whose calls started, while a worker runs it (`resuming`) or after it stopped
   * (`interrupted`, or `resuming` past its lease): set instead of `paused` once a turn after the paused
   * one has started, or from the start of a run `start` created.
   */
  readonly started?: StartedTurn;
  /** The final loop result, once finished. */
  readonly result?: LoopResult;
  readonly catalogue: CatalogueFingerprint;
  readonly claim?: RunClaim;
  /** Why the run was interrupted. */
  readonly error?: string;
  /** Every call decided by a human or started, in turn and call order. */
  readonly calls: readonly RunCall[];
}

/** A call entry the loop handed the journal, kept back to be appended with the change it leads to. */
export interface HeldCallEntry {
  readonly entry: JournalEntry;
  readonly detail?: JournalAppendDetail;
}

export interface NewRun {
  readonly runId: string;
  readonly sessionId: string;
  readonly humanId: string;
  readonly catalogue: CatalogueFingerprint;
  readonly at: string;
  readonly outcome: RunOutcome;
  /**
   * Call entries appended in the same transaction as the run: those of calls that did not run and wait for
   * the human's decision (the runner holds them back so that the pause and its entries commit together).
   */
  readonly journal?: readonly HeldCallEntry[];
}

/** A run `start` creates before its first call: claimed by its worker, `resuming`, at turn 0. */
export interface NewClaimedRun {
  readonly runId: string;
  readonly sessionId: string;
  readonly humanId: string;
  readonly catalogue: CatalogueFingerprint;
  readonly at: string;
  readonly claim: RunClaim;
  readonly started: StartedTurn;
}

/** How a run stands after a stretch of the loop: paused again, finished, or stopped by the model failing. */
export type RunOutcome =
  | { readonly status: 'paused'; readonly paused: PausedRun }
  | { readonly status: FinishedRunStatus; readonly result: LoopResult }
  | { readonly status: 'interrupted'; readonly interrupted: InterruptedRun; readonly error: string };

/** The human's decision on one pending call, as the claim records it. */
export interface DecisionInit {
  readonly callId: string;
  readonly index: number;
  readonly toolName: string;
  readonly inputDigest: string;
  readonly approved: boolean;
  readonly note?: string;
}

export interface ClaimRequest {
  readonly runId: string;
  /** The revision the caller checked; the claim fails if the run changed since. */
  readonly expectedRevision: number;
  readonly claim: RunClaim;
  /** The paused turn. */
  readonly turn: number;
  /** A resume: one decision per pending call, recorded with a `decision` journal record each. */
  readonly decisions?: readonly DecisionInit[];
  /** A recovery: recorded with a `recovery` journal record. */
  readonly recovery?: { readonly reason: string; readonly previousWorkerId?: string };
}

export interface CallStartRequest {
  readonly runId: string;
  readonly token: string;
  readonly turn: number;
  readonly callId: string;
  readonly at: string;
  /**
   * A call that needs no decision (its tool is not irreversible, or it was confirmed without a pause):
   * its row is created here, `started`. Absent: the call must have a decided, approved row (`intended`).
   */
  readonly undecided?: { readonly index: number; readonly toolName: string; readonly inputDigest: string };
  /**
   * The turn as it starts, stored as the run's state in the same transaction, before the marker: the
   * first start of a turn carries it. A start of a turn that is not the run's stored turn is refused.
   */
  readonly started?: StartedTurn;
}

export interface UnknownOutcomeRequest extends CallStartRequest {
  readonly result: ToolResultPart;
  readonly detail: string;
}

/** A loop-level retry of a model request, journaled as a `retry` record. */
export interface RetryRequest {
  readonly runId: string;
  readonly turn: number;
  readonly attempt: number;
  readonly delayMs: number;
  readonly workerId: string;
  readonly at: string;
  readonly error: { readonly name: string; readonly message: string; readonly code?: string };
}

export interface AnchorJournalOptions {
  /** Where the anchor goes; default the journal policy's `anchorSink`, else nowhere (it is returned). */
  readonly sink?: JournalAnchorSink;
  /** The key to sign it with; default the store's key. */
  readonly key?: JournalKey;
}

/** One event of a run as a store keeps it (see `appendRunEvents`): its place in the run's log, type and JSON text. */
export interface StoredRunEvent {
  readonly seq: number;
  readonly type: string;
  readonly data: string;
}

/** A `resuming` run whose worker's lease has ended: `recover` may take it over (see `listExpiredClaims`). */
export interface ExpiredClaim {
  readonly runId: string;
  readonly sessionId: string;
  readonly humanId: string;
  /** The worker whose claim ended. */
  readonly workerId: string;
  readonly leaseExpiresAt: string;
}

export interface ReadJournalOptions {
  readonly runId?: string;
  /** Rows with a seq above this one. */
  readonly afterSeq?: number;
  readonly limit?: number;
}

/**
 * The one interface behind the in-memory, SQLite and PostgreSQL stores. Every method is one transaction:
 * a claim and its decision records, a call's start marker and its journal record, a call's journal record
 * and its stored result each commit together or not at all. Writes that belong to a claim name its token
 * and fail with `ClaimLostError` once another worker holds the run.
 */
export interface DurableStore {
  /**
   * The journal to give the loop. Appending a call's entry also records its result on the claimed call it
   * answers (same transaction), so a recovered run reuses the result instead of running the call again.
   */
  readonly journal: Journal;
  /** Where the store keeps its data, as errors name it: its file, or its schema and database. */
  readonly location?: string;

  /** Throws `RunAlreadyExistsError` if the id is taken. */
  createRun(run: NewRun): Promise<void>;
  /** Creates a run claimed by its worker (`resuming`), before its first call. Throws `RunAlreadyExistsError`. */
  createClaimedRun(run: NewClaimedRun): Promise<void>;
  getRun(runId: string): Promise<RunRecord | undefined>;
  /**
   * Moves the run to `resuming` under a new claim if its revision is still `expectedRevision`; records the
   * decisions (or the recovery) with it. Returns the run as claimed. Throws `RunClaimConflictError` if the
   * run changed (another worker claimed it first), `RunNotFoundError` if there is none.
   */
  claimRun(request: ClaimRequest): Promise<RunRecord>;
  /**
   * `intended` → `started` (or a new `started` row for an `undecided` call), with a `start` record, after
   * storing the turn's state when the request carries it; throws `ClaimLostError` otherwise.
   */
  markCallStarted(request: CallStartRequest): Promise<void>;
  /**
   * `started` → `unknown` with its "outcome unknown" result and record, and returns that result. When the
   * call's journal entry landed first (its old worker finished it after this claim was taken), nothing is
   * written and the recorded result is returned: the outcome is known. Throws `ClaimLostError` if the claim
   * is not held or the call is in another state.
   */
  recordUnknownOutcome(request: UnknownOutcomeRequest): Promise<ToolResultPart>;
  /**
   * Moves the lease of a claim this worker holds to `leaseExpiresAt` (a new revision, so a `recover` that
   * read the run before cannot claim it). Throws `ClaimLostError` if the claim is not held any more.
   */
  renewClaim(request: {
    readonly runId: string;
    readonly token: string;
    readonly leaseExpiresAt: string;
  }): Promise<void>;
  /**
   * The `resuming` runs whose lease ended before `at` (their worker stopped renewing it: it is gone, or
   * stalled), oldest lease first, at most `limit` (default 100). Reading them claims nothing.
   */
  listExpiredClaims(options: { readonly at: string; readonly limit?: number }): Promise<ExpiredClaim[]>;
  /**
   * Appends events of a run (in `seq` order, each above every seq stored for the run) in one transaction,
   * then, with `keep`, drops the run's oldest events over it (no events and a `keep`: only that). What a run server streams, kept for readers of another
   * process or of a later one (schema 5). Optional: a store without it streams from memory only.
   */
  appendRunEvents?(request: {
    readonly runId: string;
    readonly events: readonly StoredRunEvent[];
    readonly keep?: number;
  }): Promise<void>;
  /** The run's stored events with a seq above `afterSeq`, in seq order, at most `limit`. */
  readRunEvents?(request: {
    readonly runId: string;
    readonly afterSeq: number;
    readonly limit: number;
  }): Promise<StoredRunEvent[]>;
  /** Ends the claim: paused again (a later turn) or finished. Throws `ClaimLostError` if the claim is not held. */
  finishRun(request: {
    readonly runId: string;
    readonly token: string;
    readonly at: string;
    readonly outcome: RunOutcome;
    /** Call entries appended in the same transaction (see `NewRun.journal`). */
    readonly journal?: readonly HeldCallEntry[];
  }): Promise<void>;
  /**
   * Marks the claimed run `interrupted` with the error, and with the loop's interrupted state when the model
   * failed (it replaces the paused state). Throws `ClaimLostError` if the claim is not held.
   */
  interruptRun(request: {
    readonly runId: string;
    readonly token: string;
    readonly at: string;
    readonly error: string;
    readonly interrupted?: InterruptedRun;
  }): Promise<void>;

  /** Appends a `retry` record (the loop asks the model again); not tied to a claim, like a call record. */
  recordRetry(request: RetryRequest): Promise<void>;

  readJournal(options?: ReadJournalOptions): Promise<JournalRow[]>;
  journalHead(): Promise<JournalHead>;
  /**
   * Walks the whole chain; see `verifyJournal`. The store's own key (its journal policy's `key`) is
   * always among the keys; pass retired ones in `keys`.
   */
  verifyJournal(options?: VerifyJournalOptions): Promise<JournalVerification>;
  /**
   * Takes the journal's head out of the database as an anchor (signed with the store's key, if any) and
   * hands it to the sink (default: the journal policy's `anchorSink`). Call it on a schedule (e.g. hourly)
   * and keep the anchors where the database's writers cannot reach: `verifyJournal({ anchor })` then
   * reports any truncation, rewind or wipe since.
   */
  anchorJournal(options?: AnchorJournalOptions): Promise<JournalAnchor>;
  /** The schema version the store runs (the number of the last migration applied; 1 for memory). */
  schemaVersion(): Promise<number>;
  close(): Promise<void>;
}
