import type { JournalEntry, JournaledResultContent, JournalNote } from '@toolcircuit/core';

/**
 * A call attempt as the executor journaled it (see core's `JournalEntry`), after the store's redaction.
 * `output` is the result content of an executed call when it is small enough to keep; above the store's
 * threshold only its size is kept, next to the entry's `outputDigest`.
 */
export interface CallRecord extends Omit<JournalEntry, 'seq'> {
  readonly kind: 'call';
  readonly output?: { readonly bytes: number; readonly content?: JournaledResultContent };
}

/** The human's answer to one pending call, written in the same transaction that claims the run. */
export interface DecisionRecord {
  readonly kind: 'decision';
  readonly at: string;
  readonly runId: string;
  readonly sessionId: string;
  readonly humanId: string;
  readonly turn: number;
  readonly callId: string;
  readonly toolName: string;
  /** The arguments the decision applies to. */
  readonly inputDigest: string;
  readonly approved: boolean;
  readonly note?: string;
  readonly workerId: string;
}

/** An approved call is about to run: written (and committed) before the tool is invoked. */
export interface StartRecord {
  readonly kind: 'start';
  readonly at: string;
  readonly runId: string;
  readonly turn: number;
  readonly callId: string;
  readonly toolName: string;
  readonly inputDigest: string;
  readonly workerId: string;
}

/** A started call whose result was never recorded (its worker stopped): it may or may not have run. */
export interface OutcomeUnknownRecord {
  readonly kind: 'outcome_unknown';
  readonly at: string;
  readonly runId: string;
  readonly turn: number;
  readonly callId: string;
  readonly toolName: string;
  readonly inputDigest: string;
  readonly workerId: string;
  readonly detail: string;
}

/** A worker took over a run whose previous worker stopped or failed. */
export interface RecoveryRecord {
  readonly kind: 'recovery';
  readonly at: string;
  readonly runId: string;
  readonly turn: number;
  readonly workerId: string;
  readonly previousWorkerId?: string;
  readonly reason: string;
}

/** The loop asked the model again after a retryable provider error (its `retry` policy). */
export interface RetryRecord {
  readonly kind: 'retry';
  readonly at: string;
  readonly runId: string;
  readonly turn: number;
  /** The attempt that failed (1 for the first request of the turn). */
  readonly attempt: number;
  readonly delayMs: number;
  readonly workerId: string;
  readonly error: { readonly name: string; readonly message: string; readonly code?: string };
}

/**
 * Something the loop noted about a model turn besides its calls (core's `JournalNote`): a part the adapter had
 * no neutral meaning for (named by the provider's own word for it and the digest of what it was), or which
 * model of a fallback list answered the turn.
 */
export type NoteRecord = {
  readonly [K in JournalNote['kind']]: Omit<Extract<JournalNote, { kind: K }>, 'kind'> & {
    readonly kind: 'note';
    /** What the note is about (core's `JournalNote.kind`). */
    readonly note: K;
  };
}[JournalNote['kind']];

/** One journal record. Plain JSON; what is hashed and chained. */
export type JournalRecord =
  | CallRecord
  | DecisionRecord
  | StartRecord
  | OutcomeUnknownRecord
  | RecoveryRecord
  | RetryRecord
  | NoteRecord;

/** A record in its place in the chain. */
export interface JournalRow {
  /** 1-based position, assigned on append. */
  readonly seq: number;
  /** The `hash` of the previous row (64 zeros for the first). */
  readonly prevHash: string;
  /**
   * Unkeyed: SHA-256 over the canonical JSON of `{ prevHash, record }`. Keyed: HMAC-SHA256 under the key
   * `keyId` over the canonical JSON of `{ keyId, prevHash, record }`.
   */
  readonly hash: string;
  /** The key the row was chained under; absent for the unkeyed chain. */
  readonly keyId?: string;
  readonly record: JournalRecord;
}

/** The last row as the store recorded it when appending: what makes a deleted tail detectable. */
export interface JournalHead {
  readonly seq: number;
  readonly hash: string;
}

/**
 * The head as the store keeps it: with `keyedSince`, the seq of the first entry chained under a key, once
 * there is one. The store never clears it (the databases refuse to, with triggers), so a journal that was
 * keyed cannot pass for one that never was: entries from there on must carry a key id, and the journal
 * must reach that far.
 */
export interface StoredJournalHead extends JournalHead {
  readonly keyedSince?: number;
}
