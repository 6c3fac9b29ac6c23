import { GENESIS_HASH } from '../journal/journal-chain.js';
import type { StoredJournalHead } from '../journal/journal-record.js';
import type { ExpiredClaim, StoredRunEvent } from '../store/durable-store.js';
import { expiredClaimsOf } from '../store/expired-claims.js';
import type {
  CallRow,
  RunRow,
  StateItemRow,
  StoreBackend,
  StoredJournalRow,
  WriteTransaction,
} from '../store/store-backend.js';

/** The rows of a journal and its head, as plain data: what a memory store can be loaded with. */
export interface JournalSnapshot {
  readonly rows: readonly StoredJournalRow[];
  readonly head: StoredJournalHead;
}

/**
 * Keeps everything in this process. One queue serialises all transactions; a failing write is undone
 * step by step, so it is as atomic as the database backends.
 */
export class MemoryBackend implements StoreBackend {
  readonly #runs = new Map<string, RunRow>();
  readonly #calls = new Map<string, CallRow>();
  /** Each run's state item rows, by `part/idx`. */
  readonly #items = new Map<string, Map<string, StateItemRow>>();
  readonly #journal: StoredJournalRow[];
  /** Each run's events, in seq order. */
  readonly #events = new Map<string, StoredRunEvent[]>();
  #head: StoredJournalHead;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(snapshot?: JournalSnapshot) {
    this.#journal = snapshot === undefined ? [] : snapshot.rows.map((row) => ({ ...row }));
    this.#head = snapshot?.head ?? { seq: 0, hash: GENESIS_HASH };
  }

  snapshot(): JournalSnapshot {
    return { rows: this.#journal.map((row) => ({ ...row })), head: { ...this.#head } };
  }

  write<T>(work: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    return this.#serialised(async () => {
      const undo: (() => void)[] = [];
      try {
        return await work(this.#transaction(undo));
      } catch (error) {
        for (const step of undo.reverse()) step();
        throw error;
      }
    });
  }

  read<T>(work: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    // Read-only by type at the call sites; the same queue gives the snapshot.
    return this.#serialised(() => work(this.#transaction([])));
  }

  expiredClaims(before: string, limit: number): Promise<ExpiredClaim[]> {
    return this.#serialised(async () => expiredClaimsOf(this.#runs.values(), before, limit));
  }

  appendEvents(runId: string, events: readonly StoredRunEvent[], keep: number | undefined): Promise<void> {
    return this.#serialised(async () => {
      const stored = this.#events.get(runId) ?? [];
      const last = stored.at(-1)?.seq ?? 0;
      // As the databases' primary key does: a seq already stored fails the whole append.
      if (events.some((event, i) => event.seq <= (i === 0 ? last : (events[i - 1]?.seq ?? last)))) {
        throw new Error(`run "${runId}": events must be appended in seq order, above those stored`);
      }
      stored.push(...events.map((event) => ({ ...event })));
      if (keep !== undefined && stored.length > keep) stored.splice(0, stored.length - keep);
      this.#events.set(runId, stored);
    });
  }

  readEvents(runId: string, afterSeq: number, limit: number): Promise<StoredRunEvent[]> {
    return this.#serialised(async () =>
      (this.#events.get(runId) ?? [])
        .filter((event) => event.seq > afterSeq)
        .slice(0, limit)
        .map((event) => ({ ...event })),
    );
  }

  async schemaVersion(): Promise<number> {
    // The memory store has no schema; it reports the version whose rows it keeps (keyed entries and the
    // head's keyed mark: 3; a started turn's lists as item rows: 4; run events: 5).
    return 5;
  }

  async close(): Promise<void> {}

  #serialised<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  #transaction(undo: (() => void)[]): WriteTransaction {
    const runs = this.#runs;
    const calls = this.#calls;
    const journal = this.#journal;
    const items = this.#items;
    const itemsOf = (runId: string) => {
      let list = items.get(runId);
      if (list === undefined) {
        list = new Map();
        items.set(runId, list);
      }
      return list;
    };
    const setRun = (row: RunRow) => {
      const before = runs.get(row.runId);
      runs.set(row.runId, row);
      undo.push(() => (before === undefined ? runs.delete(row.runId) : runs.set(row.runId, before)));
    };
    const setCall = (row: CallRow) => {
      const key = callKey(row.runId, row.turn, row.callId);
      const before = calls.get(key);
      calls.set(key, row);
      undo.push(() => (before === undefined ? calls.delete(key) : calls.set(key, before)));
    };
    return {
      getRun: async (runId) => runs.get(runId),
      getCalls: async (runId) =>
        [...calls.values()]
          .filter((row) => row.runId === runId)
          .sort((a, b) => a.turn - b.turn || a.position - b.position),
      getCall: async (runId, turn, callId) => calls.get(callKey(runId, turn, callId)),
      getItems: async (runId) =>
        [...(items.get(runId)?.values() ?? [])].sort((a, b) =>
          a.part < b.part ? -1 : a.part > b.part ? 1 : a.idx - b.idx,
        ),
      insertItems: async (rows) => {
        for (const row of rows) {
          const list = itemsOf(row.runId);
          const key = `${row.part}/${row.idx}`;
          if (list.has(key)) throw new Error(`item ${key} of run "${row.runId}" is stored already`);
          list.set(key, row);
          undo.push(() => list.delete(key));
        }
      },
      deleteItems: async (runId, parts) => {
        const list = itemsOf(runId);
        for (const [key, row] of [...list]) {
          if (parts !== undefined && !parts.includes(row.part)) continue;
          list.delete(key);
          undo.push(() => list.set(key, row));
        }
      },
      head: async () => this.#head,
      journalRows: async ({ afterSeq, limit, runId }) =>
        journal
          .filter((row) => row.seq > afterSeq && (runId === undefined || row.runId === runId))
          .sort((a, b) => a.seq - b.seq)
          .slice(0, limit),
      seqOfHash: async (hash) => journal.find((row) => row.hash === hash)?.seq,
      decidedCalls: async () =>
        [...calls.values()].map((row) => ({
          runId: row.runId,
          turn: row.turn,
          callId: row.callId,
          toolName: row.toolName,
          inputDigest: row.inputDigest,
          approved: row.approved,
          journalSeq: row.journalSeq,
        })),
      runOwners: async () =>
        [...runs.values()].map((row) => ({ runId: row.runId, sessionId: row.sessionId, humanId: row.humanId })),
      insertRun: async (row) => setRun(row),
      updateRun: async (row) => setRun(row),
      insertCall: async (row) => setCall(row),
      updateCall: async (row) => setCall(row),
      appendJournal: async (row) => {
        const head = this.#head;
        journal.push({ ...row });
        const keyedSince = head.keyedSince ?? (row.keyId === null || row.keyId === undefined ? undefined : row.seq);
        this.#head = { seq: row.seq, hash: row.hash, ...(keyedSince === undefined ? {} : { keyedSince }) };
        undo.push(() => {
          journal.pop();
          this.#head = head;
        });
      },
    };
  }
}

function callKey(runId: string, turn: number, callId: string): string {
  return JSON.stringify([runId, turn, callId]);
}
