import type { StoreCorruptError } from '../errors/store-corrupt-error.js';
import type { StoredJournalHead } from '../journal/journal-record.js';
import type { DecidedCallRow, RunOwnerRow } from '../journal/run-tables-check.js';
import type { RawJournalRow } from '../journal/verify-journal.js';
import type { CallState, ExpiredClaim, RunStatus, StoredRunEvent } from './durable-store.js';

/** A run as a backend stores it: flat, JSON as text. */
export interface RunRow {
  readonly runId: string;
  readonly sessionId: string;
  readonly humanId: string;
  readonly status: RunStatus;
  readonly revision: number;
  readonly turn: number | null;
  readonly pausedJson: string | null;
  readonly pausedDigest: string | null;
  /**
   * What the run's item rows hold (schema 4 on): per list of a started turn, its length and chain digest
   * (see `appended-state.ts`); null when it has none.
   */
  readonly itemsJson: string | null;
  readonly resultJson: string | null;
  readonly catalogueJson: string;
  readonly claimToken: string | null;
  readonly claimWorker: string | null;
  readonly claimedAt: string | null;
  readonly leaseExpiresAt: string | null;
  readonly error: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface CallRow {
  readonly runId: string;
  readonly turn: number;
  readonly callId: string;
  readonly position: number;
  readonly toolName: string;
  readonly inputDigest: string;
  readonly approved: boolean;
  readonly note: string | null;
  readonly state: CallState;
  readonly resultJson: string | null;
  readonly journalSeq: number | null;
  readonly updatedAt: string;
}

/** One item of a stored started turn's list (a message, a model turn, an untrusted source), written once. */
export interface StateItemRow {
  readonly runId: string;
  readonly part: 'messages' | 'turns' | 'sources';
  /** Its position in its list. */
  readonly idx: number;
  readonly itemJson: string;
}

/** A journal row with the columns a backend indexes it by (verification compares them with the record). */
export interface StoredJournalRow extends RawJournalRow {
  readonly runId: string;
  readonly kind: string;
}

export interface ReadTransaction {
  getRun(runId: string): Promise<RunRow | undefined>;
  /** In turn, then call order. */
  getCalls(runId: string): Promise<CallRow[]>;
  getCall(runId: string, turn: number, callId: string): Promise<CallRow | undefined>;
  /** The run's state item rows, in list then position order. */
  getItems(runId: string): Promise<StateItemRow[]>;
  /** Undefined when the head row is gone (a damaged store: verification reports it). */
  head(): Promise<StoredJournalHead | undefined>;
  /** Rows in seq order, after `afterSeq`, at most `limit`, optionally of one run. */
  journalRows(options: { afterSeq: number; limit: number; runId?: string }): Promise<StoredJournalRow[]>;
  seqOfHash(hash: string): Promise<number | undefined>;
  /** Every decided call of every run, for verification (checked against the journal). */
  decidedCalls(): Promise<DecidedCallRow[]>;
  /** Every run's session and human, for verification. */
  runOwners(): Promise<RunOwnerRow[]>;
}

export interface WriteTransaction extends ReadTransaction {
  insertRun(row: RunRow): Promise<void>;
  updateRun(row: RunRow): Promise<void>;
  insertCall(row: CallRow): Promise<void>;
  updateCall(row: CallRow): Promise<void>;
  /** Appends item rows (their positions are free). */
  insertItems(rows: readonly StateItemRow[]): Promise<void>;
  /** Deletes the run's item rows: of the lists named, or all of them. */
  deleteItems(runId: string, parts?: readonly StateItemRow['part'][]): Promise<void>;
  /** Appends the row and moves the head to it; the first keyed row also sets the head's `keyedSince`. */
  appendJournal(row: StoredJournalRow): Promise<void>;
}

/**
 * Storage without semantics; `createBackedStore` adds them, once for every backend. `write` transactions
 * are atomic and serialised with each other (SQLite: BEGIN IMMEDIATE; PostgreSQL: the journal head row is
 * locked first; memory: one queue), which is what makes every check-then-write of the store race-free.
 * `read` transactions see one consistent snapshot.
 */
export interface StoreBackend {
  write<T>(work: (tx: WriteTransaction) => Promise<T>): Promise<T>;
  read<T>(work: (tx: ReadTransaction) => Promise<T>): Promise<T>;
  /**
   * A run, its calls (in turn, then call order) and its item rows read in one snapshot, if the backend has a cheaper way
   * than a `read` transaction; otherwise the store uses `read`.
   */
  readonly readRun?:
    | ((
        runId: string,
      ) => Promise<
        | { readonly run: RunRow; readonly calls: readonly CallRow[]; readonly items: readonly StateItemRow[] }
        | undefined
      >)
    | undefined;
  /** The `resuming` runs whose `leaseExpiresAt` is before `before`, oldest lease first, at most `limit`. */
  expiredClaims(before: string, limit: number): Promise<ExpiredClaim[]>;
  /** Appends a run's events in one transaction, then (with `keep`) keeps only its last `keep` (see `appendRunEvents`). */
  appendEvents(runId: string, events: readonly StoredRunEvent[], keep: number | undefined): Promise<void>;
  /** The run's events above `afterSeq`, in seq order, at most `limit`. */
  readEvents(runId: string, afterSeq: number, limit: number): Promise<StoredRunEvent[]>;
  schemaVersion(): Promise<number>;
  /** The damage this backend met in the database, if any: the store then creates and claims no run. */
  damage?(): StoreCorruptError | undefined;
  close(): Promise<void>;
}
