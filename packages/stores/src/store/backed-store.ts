import { hash } from 'node:crypto';
import {
  canonicalJson,
  type InterruptedRun,
  type JournalAppendDetail,
  type JournalEntry,
  type JournalNote,
  type LoopResult,
  type PausedRun,
  type ToolResultPart,
} from '@toolcircuit/core';
import { ClaimLostError } from '../errors/claim-lost-error.js';
import { RunAlreadyExistsError } from '../errors/run-already-exists-error.js';
import { RunClaimConflictError } from '../errors/run-claim-conflict-error.js';
import { RunNotFoundError } from '../errors/run-not-found-error.js';
import { StoreCorruptError } from '../errors/store-corrupt-error.js';
import { isStoreError } from '../errors/store-error.js';
import { createJournalAnchor, type JournalAnchor } from '../journal/journal-anchor.js';
import { storedRowHash } from '../journal/journal-chain.js';
import { checkedJournalKey } from '../journal/journal-key.js';
import { applyPolicy, callRecordOf, type JournalPolicy } from '../journal/journal-policy.js';
import type { JournalHead, JournalRecord, JournalRow, NoteRecord } from '../journal/journal-record.js';
import { type JournalVerification, type VerifyJournalOptions, verifyJournal } from '../journal/verify-journal.js';
import { appendedStarted, STARTED_HEAD_PREFIX, startedOfHead } from './appended-state.js';
import type { CatalogueFingerprint } from './catalogue-fingerprint.js';
import type {
  AnchorJournalOptions,
  CallStartRequest,
  ClaimRequest,
  DurableStore,
  ExpiredClaim,
  HeldCallEntry,
  NewClaimedRun,
  NewRun,
  ReadJournalOptions,
  RetryRequest,
  RunCall,
  RunOutcome,
  RunRecord,
  StartedTurn,
  StoredRunEvent,
  UnknownOutcomeRequest,
} from './durable-store.js';
import type {
  CallRow,
  ReadTransaction,
  RunRow,
  StateItemRow,
  StoreBackend,
  StoredJournalRow,
  WriteTransaction,
} from './store-backend.js';
import { claimProblem, decisionRecord, recoveryRecord, startRecord, unknownOutcomeRecord } from './store-records.js';
import { DEFAULT_WRITE_RETRY_MS, retryWhileUnavailable } from './store-retry.js';
import { markStoredAsDigested } from './stored-state.js';
import { WriteBatcher } from './write-batcher.js';

export interface BackedStoreOptions {
  /** The store in messages: its file, or its schema and database. Default "memory". */
  readonly location?: string;
  /**
   * How long the writes of a claimed run (start markers, call entries and results, unknown outcomes, the
   * run's end) are tried again while the database is unavailable for a reason that passes by itself.
   */
  readonly writeRetryMs?: number;
}

const PAGE = 500;

/** A call entry filtered and serialised, ready to be chained inside a transaction. */
interface PreparedCall {
  readonly entry: JournalEntry;
  readonly applied: JournalRecord;
  readonly recordJson: string;
  /** The result, kept (as canonical JSON) with the decided call it answers, if any. */
  readonly result?: ToolResultPart;
}
const JOURNAL_HEAD_MISSING =
  "the journal's head row is missing: the store was damaged; run `toolcircuit journal verify` on it";

/**
 * The store's rules, written once over any backend: claims compare revisions, writes of a claim compare
 * its token, and every journal record is policy-filtered and chained inside the transaction of the state
 * change it documents.
 */
export class BackedStore implements DurableStore {
  readonly #backend: StoreBackend;
  readonly #policy: JournalPolicy;
  /** Start markers and call entries: those of one turn arrive together and share a commit. */
  readonly #batcher: WriteBatcher;
  readonly #writeRetryMs: number;
  readonly journal: DurableStore['journal'];
  readonly location: string;

  constructor(backend: StoreBackend, policy: JournalPolicy = {}, options: BackedStoreOptions = {}) {
    this.#backend = backend;
    this.location = options.location ?? 'memory';
    this.#writeRetryMs = Math.max(0, options.writeRetryMs ?? DEFAULT_WRITE_RETRY_MS);
    // A batch that fails because the database is away is tried again as a whole (each of its writes checks
    // the claim again): a blip must not turn a tool's known result into "outcome unknown".
    this.#batcher = new WriteBatcher(
      { write: (work) => retryWhileUnavailable(() => backend.write(work), this.#writeRetryMs) },
      (error) => error instanceof ClaimLostError || error instanceof RunNotFoundError,
    );
    if (policy.key !== undefined) checkedJournalKey(policy.key);
    this.#policy = policy;
    this.journal = {
      append: (entry, detail) => this.#appendCall(entry, detail),
      note: (note) => this.#appendNote(note),
    };
  }

  async #appendNote(note: JournalNote): Promise<void> {
    const { kind, ...rest } = note;
    // `note` keeps the note's own kind beside its fields: the pair is one member of `NoteRecord`.
    const record = { kind: 'note', note: kind, ...rest } as NoteRecord;
    await this.#backend.write(async (tx) => {
      await this.#append(tx, record);
    });
  }

  async #appendCall(entry: JournalEntry, detail: JournalAppendDetail | undefined): Promise<void> {
    // Filtered and serialised before it joins a batch: a redaction that throws fails this entry alone.
    const prepared = this.#prepareCall({ entry, ...(detail === undefined ? {} : { detail }) });
    await this.#batched(entry.runId, (tx) => this.#appendPreparedCall(tx, prepared));
  }

  /** One write transaction for a run; a store error names the run. */
  #write<T>(runId: string, work: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    return forRun(runId, this.#backend.write(work));
  }

  /** A write of a claimed run: tried again while the database is away, up to the store's `writeRetryMs`. */
  #claimedWrite<T>(runId: string, work: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    return forRun(
      runId,
      retryWhileUnavailable(() => this.#backend.write(work), this.#writeRetryMs),
    );
  }

  /** A write of a claimed run that shares its commit with those arriving together (tried again as well). */
  #batched<T>(runId: string, work: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    return forRun(runId, this.#batcher.write(work));
  }

  /** A store that met damage creates and claims no run: nothing new is built on a damaged database. */
  #refuseIfDamaged(runId: string): void {
    const damage = this.#backend.damage?.();
    if (damage !== undefined) throw damage.forRun(runId);
  }

  #prepareCall({ entry, detail }: HeldCallEntry): PreparedCall {
    const applied = applyPolicy(callRecordOf(entry, detail, this.#policy), this.#policy);
    return {
      entry,
      applied,
      recordJson: canonicalJson(applied),
      ...(detail === undefined ? {} : { result: detail.result }),
    };
  }

  async #appendPreparedCall(tx: WriteTransaction, prepared: PreparedCall): Promise<void> {
    const { entry, result } = prepared;
    const row = await this.#appendApplied(tx, prepared.applied, prepared.recordJson);
    if (result === undefined) return;
    // The entry answers a decided call of a claimed turn: its result is kept with it, in this
    // transaction, so "journaled" and "result known" can never disagree after a crash.
    const call = await tx.getCall(entry.runId, entry.turn, entry.callId);
    if (call === undefined || (call.state !== 'intended' && call.state !== 'started')) return;
    // Serialised only here: most entries (calls left waiting, calls no decision covers) answer no decided call.
    const resultJson = canonicalJson(result);
    await tx.updateCall({ ...call, state: 'done', resultJson, journalSeq: row.seq, updatedAt: now() });
  }

  #append(tx: WriteTransaction, record: JournalRecord): Promise<StoredJournalRow> {
    const applied = applyPolicy(record, this.#policy);
    return this.#appendApplied(tx, applied, canonicalJson(applied));
  }

  async #appendApplied(tx: WriteTransaction, applied: JournalRecord, recordJson: string): Promise<StoredJournalRow> {
    const head = await tx.head();
    if (head === undefined) throw new Error(JOURNAL_HEAD_MISSING);
    const { key } = this.#policy;
    const row: StoredJournalRow = {
      seq: head.seq + 1,
      prevHash: head.hash,
      // Hashed from the stored (canonical) text, which is all verification has.
      hash: storedRowHash(head.hash, recordJson, key),
      recordJson,
      runId: applied.runId,
      kind: applied.kind,
      keyId: key?.id ?? null,
    };
    await tx.appendJournal(row);
    return row;
  }

  async createRun(run: NewRun): Promise<void> {
    const held = (run.journal ?? []).map((call) => this.#prepareCall(call));
    const columns = outcomeColumns(run.outcome);
    this.#refuseIfDamaged(run.runId);
    await this.#write(run.runId, async (tx) => {
      if ((await tx.getRun(run.runId)) !== undefined) throw new RunAlreadyExistsError(run.runId);
      for (const call of held) await this.#appendPreparedCall(tx, call);
      await tx.insertRun({
        runId: run.runId,
        sessionId: run.sessionId,
        humanId: run.humanId,
        revision: 1,
        catalogueJson: canonicalJson(run.catalogue),
        claimToken: null,
        claimWorker: null,
        claimedAt: null,
        leaseExpiresAt: null,
        createdAt: run.at,
        updatedAt: run.at,
        itemsJson: null,
        ...columns,
      });
    });
  }

  async createClaimedRun(run: NewClaimedRun): Promise<void> {
    const write = appendedStarted(run.runId, run.started, null);
    this.#refuseIfDamaged(run.runId);
    await this.#write(run.runId, async (tx) => {
      if ((await tx.getRun(run.runId)) !== undefined) throw new RunAlreadyExistsError(run.runId);
      await tx.insertRun({
        runId: run.runId,
        sessionId: run.sessionId,
        humanId: run.humanId,
        status: 'resuming',
        revision: 1,
        catalogueJson: canonicalJson(run.catalogue),
        claimToken: run.claim.token,
        claimWorker: run.claim.workerId,
        claimedAt: run.claim.claimedAt,
        leaseExpiresAt: run.claim.leaseExpiresAt,
        createdAt: run.at,
        updatedAt: run.at,
        resultJson: null,
        error: null,
        turn: run.started.turn,
        pausedJson: write.pausedJson,
        pausedDigest: write.pausedDigest,
        itemsJson: write.itemsJson,
      });
      await tx.insertItems(write.rows);
    });
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    if (this.#backend.readRun !== undefined) {
      const read = await this.#backend.readRun(runId);
      return read === undefined ? undefined : recordOf(read.run, read.calls, read.items);
    }
    return this.#backend.read(async (tx) => {
      const row = await tx.getRun(runId);
      return row === undefined ? undefined : recordOf(row, await tx.getCalls(runId), await itemsFor(tx, row));
    });
  }

  async claimRun(request: ClaimRequest): Promise<RunRecord> {
    this.#refuseIfDamaged(request.runId);
    return this.#write(request.runId, async (tx) => {
      const row = await tx.getRun(request.runId);
      if (row === undefined) throw new RunNotFoundError(request.runId);
      const expected = request.decisions === undefined ? ['resuming', 'interrupted'] : ['paused'];
      if (row.revision !== request.expectedRevision || !expected.includes(row.status) || row.turn !== request.turn) {
        throw new RunClaimConflictError(request.runId, row.status);
      }
      const claimed: RunRow = {
        ...row,
        status: 'resuming',
        revision: row.revision + 1,
        claimToken: request.claim.token,
        claimWorker: request.claim.workerId,
        claimedAt: request.claim.claimedAt,
        leaseExpiresAt: request.claim.leaseExpiresAt,
        error: null,
        updatedAt: now(),
      };
      await tx.updateRun(claimed);
      for (const decision of request.decisions ?? []) {
        if ((await tx.getCall(row.runId, request.turn, decision.callId)) !== undefined) {
          throw new RunClaimConflictError(request.runId, row.status);
        }
        await tx.insertCall({
          runId: row.runId,
          turn: request.turn,
          callId: decision.callId,
          position: decision.index,
          toolName: decision.toolName,
          inputDigest: decision.inputDigest,
          approved: decision.approved,
          note: decision.note ?? null,
          state: 'intended',
          resultJson: null,
          journalSeq: null,
          updatedAt: claimed.updatedAt,
        });
        await this.#append(tx, decisionRecord(row, request, decision));
      }
      if (request.recovery !== undefined) await this.#append(tx, recoveryRecord(row, request, request.recovery));
      // The caller checked the state it read before claiming; it is parsed again only if it is asked for.
      return recordOf(claimed, await tx.getCalls(row.runId), await itemsFor(tx, claimed), { lazyState: true });
    });
  }

  async markCallStarted(request: CallStartRequest): Promise<void> {
    // The calls of a turn start together: their markers share one transaction (each is checked on its own,
    // and each resolves only once committed, before its tool may run).
    // The turn's state is serialised before it joins a batch (the write lock is not held meanwhile).
    const { started } = request;
    if (started !== undefined && started.turn !== request.turn) {
      throw new Error(`the state stored with a start of turn ${request.turn} is of turn ${started.turn}`);
    }
    await this.#batched(request.runId, async (tx) => {
      let run = await this.#heldRun(tx, request.runId, request.token);
      if (started !== undefined) {
        // The first start of a turn: the turn (the model's reply, appended to the conversation) is stored
        // in this transaction, before its marker and before any of the turn's calls can run. Only what the
        // stored turn lacks is written (its new messages, model turn and sources), and the state's head.
        const write = appendedStarted(run.runId, started, run.itemsJson);
        if (write.replace.length > 0) await tx.deleteItems(run.runId, write.replace);
        await tx.insertItems(write.rows);
        run = {
          ...run,
          turn: started.turn,
          pausedJson: write.pausedJson,
          pausedDigest: write.pausedDigest,
          itemsJson: write.itemsJson,
          revision: run.revision + 1,
          updatedAt: request.at,
        };
        await tx.updateRun(run);
      }
      // A call starts only in the turn the run has stored: after a crash, `recover` knows its turn.
      if (run.turn !== request.turn) {
        throw new ClaimLostError(
          run.runId,
          `turn ${request.turn} is not the run's stored turn (${run.turn ?? 'none'})`,
        );
      }
      const existing = await tx.getCall(request.runId, request.turn, request.callId);
      const { undecided } = request;
      if (undecided !== undefined) {
        if (existing !== undefined) {
          throw new ClaimLostError(run.runId, `call "${request.callId}" is already ${existing.state}`);
        }
        const call: CallRow = {
          runId: run.runId,
          turn: request.turn,
          callId: request.callId,
          position: undecided.index,
          toolName: undecided.toolName,
          inputDigest: undecided.inputDigest,
          approved: true,
          note: null,
          state: 'started',
          resultJson: null,
          journalSeq: null,
          updatedAt: request.at,
        };
        await tx.insertCall(call);
        await this.#append(tx, startRecord(run, call, request.at));
        return;
      }
      if (existing === undefined) {
        throw new ClaimLostError(request.runId, `call "${request.callId}" of turn ${request.turn} was not decided`);
      }
      if (existing.state !== 'intended')
        throw new ClaimLostError(run.runId, `call "${existing.callId}" is already ${existing.state}`);
      if (!existing.approved) throw new ClaimLostError(run.runId, `call "${existing.callId}" was declined`);
      await tx.updateCall({ ...existing, state: 'started', updatedAt: now() });
      await this.#append(tx, startRecord(run, existing, request.at));
    });
  }

  recordUnknownOutcome(request: UnknownOutcomeRequest): Promise<ToolResultPart> {
    return this.#claimedWrite(request.runId, async (tx) => {
      const { run, call } = await this.#heldCall(tx, request);
      // The previous worker's entry won the race: its result is what happened, not an unknown.
      if (call.state === 'done' && call.resultJson !== null) return JSON.parse(call.resultJson) as ToolResultPart;
      if (call.state !== 'started')
        throw new ClaimLostError(run.runId, `call "${call.callId}" is ${call.state}, not started`);
      const row = await this.#append(tx, unknownOutcomeRecord(run, call, request.at, request.detail));
      await tx.updateCall({
        ...call,
        state: 'unknown',
        resultJson: canonicalJson(request.result),
        journalSeq: row.seq,
        updatedAt: now(),
      });
      return request.result;
    });
  }

  async #heldCall(tx: WriteTransaction, request: CallStartRequest): Promise<{ run: RunRow; call: CallRow }> {
    const run = await this.#heldRun(tx, request.runId, request.token);
    const call = await tx.getCall(request.runId, request.turn, request.callId);
    if (call === undefined) {
      throw new ClaimLostError(request.runId, `call "${request.callId}" of turn ${request.turn} was not decided`);
    }
    return { run, call };
  }

  async #heldRun(tx: WriteTransaction, runId: string, token: string): Promise<RunRow> {
    const run = await tx.getRun(runId);
    if (run === undefined) throw new RunNotFoundError(runId);
    const problem = claimProblem(run, token);
    if (problem !== undefined) throw new ClaimLostError(runId, problem);
    return run;
  }

  async renewClaim(request: { readonly runId: string; readonly token: string; readonly leaseExpiresAt: string }) {
    await this.#claimedWrite(request.runId, async (tx) => {
      const run = await this.#heldRun(tx, request.runId, request.token);
      // A new revision: a `recover` that read the lease as ended before this renewal fails its claim.
      await tx.updateRun({ ...run, revision: run.revision + 1, leaseExpiresAt: request.leaseExpiresAt });
    });
  }

  listExpiredClaims(options: { readonly at: string; readonly limit?: number }): Promise<ExpiredClaim[]> {
    return this.#backend.expiredClaims(options.at, options.limit ?? 100);
  }

  async appendRunEvents(request: {
    readonly runId: string;
    readonly events: readonly StoredRunEvent[];
    readonly keep?: number;
  }): Promise<void> {
    const keep = request.keep === undefined ? undefined : Math.max(1, request.keep);
    if (request.events.length === 0 && keep === undefined) return;
    await this.#backend.appendEvents(request.runId, request.events, keep);
  }

  readRunEvents(request: {
    readonly runId: string;
    readonly afterSeq: number;
    readonly limit: number;
  }): Promise<StoredRunEvent[]> {
    return this.#backend.readEvents(request.runId, request.afterSeq, request.limit);
  }

  async finishRun(request: {
    readonly runId: string;
    readonly token: string;
    readonly at: string;
    readonly outcome: RunOutcome;
    readonly journal?: readonly HeldCallEntry[];
  }): Promise<void> {
    const held = (request.journal ?? []).map((call) => this.#prepareCall(call));
    // Serialised before the transaction: the database's write lock is not held while the state is written out.
    const columns = outcomeColumns(request.outcome);
    const finished = request.outcome.status !== 'paused';
    await this.#claimedWrite(request.runId, async (tx) => {
      const run = await this.#heldRun(tx, request.runId, request.token);
      for (const call of held) await this.#appendPreparedCall(tx, call);
      // A finished run goes on from nothing: its items go (a paused one keeps them, for its next turns).
      if (finished && run.itemsJson !== null) await tx.deleteItems(run.runId);
      await tx.updateRun({
        ...run,
        ...columns,
        ...(finished ? { itemsJson: null } : {}),
        revision: run.revision + 1,
        claimToken: null,
        claimWorker: null,
        claimedAt: null,
        leaseExpiresAt: null,
        error: null,
        updatedAt: request.at,
      });
    });
  }

  async interruptRun(request: {
    readonly runId: string;
    readonly token: string;
    readonly at: string;
    readonly error: string;
    readonly interrupted?: InterruptedRun;
  }): Promise<void> {
    await this.#claimedWrite(request.runId, async (tx) => {
      const run = await this.#heldRun(tx, request.runId, request.token);
      // The claim stays on record (who was running it); `recover` replaces it.
      await tx.updateRun({
        ...run,
        ...(request.interrupted === undefined
          ? {}
          : outcomeColumns({ status: 'interrupted', interrupted: request.interrupted, error: request.error })),
        status: 'interrupted',
        revision: run.revision + 1,
        error: request.error,
        updatedAt: request.at,
      });
    });
  }

  async recordRetry(request: RetryRequest): Promise<void> {
    await this.#claimedWrite(request.runId, async (tx) => {
      await this.#append(tx, { kind: 'retry', ...request });
    });
  }

  readJournal(options: ReadJournalOptions = {}): Promise<JournalRow[]> {
    return this.#backend.read(async (tx) => {
      const limit = options.limit ?? Number.POSITIVE_INFINITY;
      const rows: JournalRow[] = [];
      let afterSeq = options.afterSeq ?? 0;
      while (rows.length < limit) {
        const page = await tx.journalRows({
          afterSeq,
          limit: Math.min(PAGE, limit - rows.length),
          ...(options.runId === undefined ? {} : { runId: options.runId }),
        });
        for (const raw of page) {
          rows.push({
            seq: raw.seq,
            prevHash: raw.prevHash,
            hash: raw.hash,
            ...(raw.keyId === null || raw.keyId === undefined ? {} : { keyId: raw.keyId }),
            record: JSON.parse(raw.recordJson),
          });
        }
        const last = page.at(-1);
        if (last === undefined || page.length < PAGE) break;
        afterSeq = last.seq;
      }
      return rows;
    });
  }

  journalHead(): Promise<JournalHead> {
    return this.#backend.read(async (tx) => {
      const head = await tx.head();
      if (head === undefined) throw new Error(JOURNAL_HEAD_MISSING);
      return { seq: head.seq, hash: head.hash };
    });
  }

  verifyJournal(options: VerifyJournalOptions = {}): Promise<JournalVerification> {
    const { key } = this.#policy;
    const keys = key === undefined ? options.keys : [key, ...(options.keys ?? [])];
    const read = { lastSeq: 0 };
    return this.#backend
      .read((tx) =>
        verifyJournal(
          {
            rows: () => pagedRows(tx, read),
            head: () => tx.head(),
            seqOfHash: (hash) => tx.seqOfHash(hash),
            runTables: { decidedCalls: () => tx.decidedCalls(), runOwners: () => tx.runOwners() },
          },
          { ...options, ...(keys === undefined ? {} : { keys }) },
        ),
      )
      .catch((error: unknown): JournalVerification => {
        // A damaged database is a finding about the journal, not a failure of the verification.
        if (!(error instanceof StoreCorruptError)) throw error;
        const seq = read.lastSeq + 1;
        return {
          ok: false,
          seq,
          problem: 'corrupt',
          message: `the journal cannot be read from entry ${seq} on: ${error.message}`,
          // The last entry read is vouched for only by the next one's link, which could not be read.
          entries: Math.max(0, read.lastSeq - 1),
        };
      });
  }

  async anchorJournal(options: AnchorJournalOptions = {}): Promise<JournalAnchor> {
    const key = options.key ?? this.#policy.key;
    if (key !== undefined) checkedJournalKey(key, 'key');
    const anchor = createJournalAnchor(await this.journalHead(), now(), key);
    await (options.sink ?? this.#policy.anchorSink)?.(anchor);
    return anchor;
  }

  schemaVersion(): Promise<number> {
    return this.#backend.schemaVersion();
  }

  close(): Promise<void> {
    return this.#backend.close();
  }
}

/** The journal's rows, page by page; `read.lastSeq` follows the last row handed out. */
async function* pagedRows(tx: ReadTransaction, read: { lastSeq: number }) {
  let afterSeq = 0;
  for (;;) {
    const page = await journalPage(tx, afterSeq);
    for (const row of page) {
      read.lastSeq = row.seq;
      yield row;
    }
    const last = page.at(-1);
    if (last === undefined || page.length < PAGE) return;
    afterSeq = last.seq;
  }
}

/**
 * A page of the journal. When the database reports damage inside it, the page is read again row by row up
 * to the damage, so that verification names the first entry that cannot be read (the damage is thrown
 * there); should the transaction not allow that (PostgreSQL aborts it), the page's own error is thrown.
 */
async function journalPage(tx: ReadTransaction, afterSeq: number): Promise<StoredJournalRow[]> {
  try {
    return await tx.journalRows({ afterSeq, limit: PAGE });
  } catch (damage) {
    if (!(damage instanceof StoreCorruptError)) throw damage;
    const rows: StoredJournalRow[] = [];
    for (let after = afterSeq; rows.length < PAGE; ) {
      let next: StoredJournalRow[];
      try {
        next = await tx.journalRows({ afterSeq: after, limit: 1 });
      } catch (error) {
        if (rows.length === 0 || !(error instanceof StoreCorruptError)) throw damage;
        // The rows before the damage, then the damage (on the next page's read).
        return rows;
      }
      const [row] = next;
      if (row === undefined) return rows;
      rows.push(row);
      after = row.seq;
    }
    return rows;
  }
}

/** The store's error about this run: its id, in the error and in its message. */
function forRun<T>(runId: string, operation: Promise<T>): Promise<T> {
  return operation.catch((error: unknown) => {
    throw isStoreError(error) && error.runId === undefined ? error.forRun(runId) : error;
  });
}

function outcomeColumns(
  outcome: RunOutcome,
): Pick<RunRow, 'status' | 'turn' | 'pausedJson' | 'pausedDigest' | 'resultJson' | 'error'> {
  if (outcome.status === 'interrupted') {
    // The state column holds either a paused run or `{ interrupted }`: no schema change, and the digest
    // covers the wrapper, so an altered state is caught the same way.
    const state = { interrupted: outcome.interrupted };
    const pausedJson = canonicalJson(state);
    return {
      status: 'interrupted',
      turn: outcome.interrupted.turn,
      pausedJson,
      pausedDigest: digestOfCanonical(pausedJson),
      resultJson: null,
      error: outcome.error,
    };
  }
  if (outcome.status === 'paused') {
    const pausedJson = canonicalJson(outcome.paused);
    return {
      status: 'paused',
      turn: outcome.paused.turn,
      pausedJson,
      pausedDigest: digestOfCanonical(pausedJson),
      resultJson: null,
      error: null,
    };
  }
  return {
    status: outcome.status,
    turn: null,
    pausedJson: null,
    pausedDigest: null,
    resultJson: canonicalJson(outcome.result),
    error: null,
  };
}

/** The item rows a run's state column needs: those of a started turn's head (none for a whole state). */
async function itemsFor(tx: ReadTransaction, row: RunRow): Promise<StateItemRow[]> {
  return row.pausedJson?.startsWith(STARTED_HEAD_PREFIX) === true ? tx.getItems(row.runId) : [];
}

function recordOf(
  row: RunRow,
  calls: readonly CallRow[],
  items: readonly StateItemRow[],
  options: { lazyState?: boolean } = {},
): RunRecord {
  const record: RunRecord = {
    runId: row.runId,
    sessionId: row.sessionId,
    humanId: row.humanId,
    status: row.status,
    revision: row.revision,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(options.lazyState === true ? {} : stateOf(row.pausedJson, row.pausedDigest, items)),
    ...(row.pausedDigest === null ? {} : { pausedDigest: row.pausedDigest }),
    ...(row.resultJson === null ? {} : { result: JSON.parse(row.resultJson) as LoopResult }),
    catalogue: JSON.parse(row.catalogueJson) as CatalogueFingerprint,
    ...(row.claimToken === null
      ? {}
      : {
          claim: {
            token: row.claimToken,
            workerId: row.claimWorker ?? '',
            claimedAt: row.claimedAt ?? '',
            leaseExpiresAt: row.leaseExpiresAt ?? '',
          },
        }),
    ...(row.error === null ? {} : { error: row.error }),
    calls: calls.map(callOf),
  };
  return options.lazyState === true ? withLazyState(record, row, items) : record;
}

/**
 * The record with its state column parsed on first read of `paused` or `interrupted`. Which of the two it
 * holds is read from the text's start, which this store writes canonically; text in another layout (not
 * written by it) is parsed at once, as `recordOf` does.
 */
function withLazyState(record: RunRecord, row: RunRow, items: readonly StateItemRow[]): RunRecord {
  const json = row.pausedJson;
  if (json === null) return record;
  const key = json.startsWith('{"interrupted":')
    ? 'interrupted'
    : json.startsWith('{"started":') || json.startsWith(STARTED_HEAD_PREFIX)
      ? 'started'
      : json.startsWith('{"') && !json.startsWith('{"interrupted"') && !json.startsWith('{"started')
        ? 'paused'
        : undefined;
  if (key === undefined) return { ...record, ...stateOf(json, row.pausedDigest, items) };
  let state: StateColumn | undefined;
  return Object.defineProperty({ ...record }, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      state ??= stateOf(json, row.pausedDigest, items);
      return state[key];
    },
  });
}

/**
 * The state column: a paused run, `{ interrupted }` for a run the model interrupted, or `{ started }` for a
 * run whose last started turn is stored. When the text
 * hashes to the stored digest, the parsed state is marked as such: the runner then knows it is what was
 * written without serialising it again (see `stored-state.ts`).
 */
function stateOf(json: string | null, digest: string | null, items: readonly StateItemRow[]): StateColumn {
  if (json === null) return {};
  // A started turn stored append-only: its head, and its lists from the item rows.
  if (json.startsWith(STARTED_HEAD_PREFIX)) return { started: startedOfHead(json, digest, items) };
  const state = JSON.parse(json) as PausedRun | { interrupted: InterruptedRun } | { started: StartedTurn };
  const inner = 'interrupted' in state ? state.interrupted : 'started' in state ? state.started : state;
  if (digest !== null && typeof inner === 'object' && inner !== null && digestOfCanonical(json) === digest) {
    markStoredAsDigested(inner);
  }
  if ('interrupted' in state) return { interrupted: state.interrupted };
  if ('started' in state) return { started: state.started };
  return { paused: state };
}

/** What the state column holds: one of the three, by its only key (a paused run has several). */
interface StateColumn {
  paused?: PausedRun;
  interrupted?: InterruptedRun;
  started?: StartedTurn;
}

function callOf(row: CallRow): RunCall {
  return {
    turn: row.turn,
    callId: row.callId,
    index: row.position,
    toolName: row.toolName,
    inputDigest: row.inputDigest,
    approved: row.approved,
    ...(row.note === null ? {} : { note: row.note }),
    state: row.state,
    ...(row.resultJson === null ? {} : { result: JSON.parse(row.resultJson) as ToolResultPart }),
    ...(row.journalSeq === null ? {} : { journalSeq: row.journalSeq }),
  };
}

/** `jsonDigest` of a value whose canonical JSON is already at hand: the same SHA-256, serialised once. */
function digestOfCanonical(json: string): string {
  // The one-shot `hash` (Node ≥ 20.12) is several times cheaper than a Hash object for one text.
  return hash('sha256', json, 'hex');
}

function now(): string {
  return new Date().toISOString();
}
