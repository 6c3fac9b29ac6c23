import { StoreCorruptError } from '../errors/store-corrupt-error.js';
import type { StoredJournalHead } from '../journal/journal-record.js';
import type { CallState, ExpiredClaim, RunStatus, StoredRunEvent } from '../store/durable-store.js';
import type {
  CallRow,
  ReadTransaction,
  RunRow,
  StateItemRow,
  StoreBackend,
  StoredJournalRow,
  WriteTransaction,
} from '../store/store-backend.js';
import type { SqlConnection, SqlSession } from './sql-connection.js';
import { selectExpiredClaims } from './sql-expired-claims.js';
import { appliedVersion } from './sql-migrations.js';
import { appendRunEvents, readRunEvents } from './sql-run-events.js';

const RUN_COLUMNS = [
  'run_id',
  'session_id',
  'human_id',
  'status',
  'revision',
  'turn',
  'paused_json',
  'paused_digest',
  'items_json',
  'result_json',
  'catalogue_json',
  'claim_token',
  'claim_worker',
  'claimed_at',
  'lease_expires_at',
  'error',
  'created_at',
  'updated_at',
] as const;

const CALL_COLUMNS = [
  'run_id',
  'turn',
  'call_id',
  'position',
  'tool_name',
  'input_digest',
  'approved',
  'note',
  'state',
  'result_json',
  'journal_seq',
  'updated_at',
] as const;

/** The schema version that added the journal's `key_id` column (keyed chains). */
export const KEYED_JOURNAL_VERSION = 2;

/** The schema version that added the head's `keyed_since` column (a keyed journal stays keyed). */
export const KEYED_HEAD_VERSION = 3;

/** The schema version that stores a started turn's lists as item rows (`run_items`, `runs.items_json`). */
export const APPENDED_STATE_VERSION = 4;

/** The store backend for SQLite and PostgreSQL: the same statements, placeholders numbered for PostgreSQL. */
export class SqlBackend implements StoreBackend {
  readonly #connection: SqlConnection;
  readonly #t: (name: string) => string;
  readonly #keyColumn: string;
  readonly #headColumns: string;
  #damage: StoreCorruptError | undefined;
  readonly readRun: StoreBackend['readRun'];

  /**
   * `schemaVersion`: the store's, so a journal opened read-only at an older version (no `key_id` column)
   * is still read, as the unkeyed chain it is.
   */
  constructor(connection: SqlConnection, schemaVersion: number) {
    this.#connection = connection;
    this.#t = (name) => connection.table(name);
    this.#keyColumn = schemaVersion >= KEYED_JOURNAL_VERSION ? 'key_id' : 'NULL AS key_id';
    this.#headColumns = schemaVersion >= KEYED_HEAD_VERSION ? 'seq, hash, keyed_since' : 'seq, hash';
    const single = connection.single?.bind(connection);
    if (single !== undefined) {
      // PostgreSQL: the run row with its calls as a JSON array, in one statement (one snapshot, one round
      // trip instead of BEGIN, two SELECTs and COMMIT). SQLite has no `single`: a transaction there is free.
      // The item rows only when the state column is a started turn's head that needs them.
      const items =
        schemaVersion >= APPENDED_STATE_VERSION
          ? `, CASE WHEN r.paused_json LIKE '{"startedHead":%' THEN (SELECT COALESCE(json_agg(i ORDER BY i.part, ` +
            `i.idx), '[]'::json) FROM ${this.#t('run_items')} AS i WHERE i.run_id = r.run_id) END AS items_rows`
          : '';
      const sql =
        `SELECT r.*, (SELECT COALESCE(json_agg(c ORDER BY c.turn, c.position), '[]'::json) FROM ${this.#t('run_calls')} ` +
        `AS c WHERE c.run_id = r.run_id) AS calls_json${items} FROM ${this.#t('runs')} AS r WHERE r.run_id = ?`;
      this.readRun = async (runId) => {
        const [row] = await this.#noting(single(sql, [runId]));
        if (row === undefined) return undefined;
        // node-postgres parses json columns; the numbers inside are JSON numbers, not BIGINT text.
        return {
          run: runRowOf(row),
          calls: (row.calls_json as Record<string, unknown>[]).map(callRowOf),
          items: ((row.items_rows ?? []) as Record<string, unknown>[]).map(itemRowOf),
        };
      };
    }
  }

  write<T>(work: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    const postgres = this.#connection.dialect === 'postgres';
    // On PostgreSQL every write locks the head row first (sent with the BEGIN): writes are serialised
    // across workers, so each check-then-write of the store sees the latest committed state and cannot
    // deadlock. The row it returns is the head this transaction starts from (nobody else can move it now).
    const lock = postgres
      ? `SELECT ${this.#headColumns} FROM ${this.#t('journal_head')} WHERE id = 1 FOR UPDATE`
      : undefined;
    const written = this.#connection.transaction(
      'write',
      async (session, opened) => {
        const [row] = opened;
        const known = postgres ? { head: row === undefined ? undefined : headOf(row) } : undefined;
        const tx = this.#transaction(session, known);
        const value = await work(tx);
        await tx.flush();
        return value;
      },
      lock,
    );
    return this.#noting(written);
  }

  read<T>(work: (tx: ReadTransaction) => Promise<T>): Promise<T> {
    return this.#noting(this.#connection.transaction('read', (session) => work(this.#transaction(session))));
  }

  damage(): StoreCorruptError | undefined {
    return this.#damage;
  }

  /** Remembers damage the database reported, whichever operation met it. */
  #noting<T>(operation: Promise<T>): Promise<T> {
    return operation.catch((error: unknown) => {
      if (error instanceof StoreCorruptError) this.#damage ??= error;
      throw error;
    });
  }

  expiredClaims(before: string, limit: number): Promise<ExpiredClaim[]> {
    return this.#noting(selectExpiredClaims(this.#connection, before, limit));
  }

  appendEvents(runId: string, events: readonly StoredRunEvent[], keep: number | undefined): Promise<void> {
    return this.#noting(appendRunEvents(this.#connection, runId, events, keep));
  }

  readEvents(runId: string, afterSeq: number, limit: number): Promise<StoredRunEvent[]> {
    return this.#noting(readRunEvents(this.#connection, runId, afterSeq, limit));
  }

  schemaVersion(): Promise<number> {
    return appliedVersion(this.#connection);
  }

  close(): Promise<void> {
    return this.#connection.close();
  }

  /**
   * One transaction's statements. Inside a write transaction, which holds the database's write lock (or
   * the head row's), nobody else can change a row: what it read or wrote is kept, so each run, its calls
   * and the head are read once, and the call rows and journal rows it writes go out together just before
   * the commit (a few multi-row statements instead of several round trips per record). Reads of the
   * journal itself go to the database after what is pending was written.
   */
  #transaction(
    session: SqlSession,
    known?: { head: StoredJournalHead | undefined },
  ): WriteTransaction & { flush(): Promise<void> } {
    const t = this.#t;
    const runs = t('runs');
    const calls = t('run_calls');
    const journal = t('journal');
    const headTable = t('journal_head');
    const postgres = this.#connection.dialect === 'postgres';
    const items = t('run_items');
    const runCache = new Map<string, RunRow | undefined>();
    /** The call rows of a run read or written so far, by `turn/callId`. */
    const callCache = new Map<string, Map<string, CallRow>>();
    /** Which of a run's call rows were read: all of them, or those of some turns. */
    const callsRead = new Map<string, 'all' | Set<number>>();
    const newCalls: CallRow[] = [];
    const changedCalls = new Map<string, CallRow>();
    const newRows: StoredJournalRow[] = [];
    let head: StoredJournalHead | undefined = known?.head;
    const headColumns = this.#headColumns;
    let headRead = known !== undefined;

    /**
     * The run's call rows, with those of `turn` (or all, without one) read: a turn's start reads its own
     * turn's rows, not every row of the run, so it costs the same at turn 1,000 as at turn 1. Rows this
     * transaction holds already are newer than the database's and are kept.
     */
    const callsOf = async (runId: string, turn?: number): Promise<Map<string, CallRow>> => {
      let cached = callCache.get(runId);
      if (cached === undefined) {
        cached = new Map();
        callCache.set(runId, cached);
      }
      let read = callsRead.get(runId);
      if (read === 'all' || (turn !== undefined && read?.has(turn) === true)) return cached;
      const rows =
        turn === undefined
          ? await session.all(`SELECT * FROM ${calls} WHERE run_id = ?`, [runId])
          : await session.all(`SELECT * FROM ${calls} WHERE run_id = ? AND turn = ?`, [runId, turn]);
      for (const row of rows.map(callRowOf)) if (!cached.has(callKey(row))) cached.set(callKey(row), row);
      if (turn === undefined) callsRead.set(runId, 'all');
      else {
        if (read === undefined) {
          read = new Set();
          callsRead.set(runId, read);
        }
        read.add(turn);
      }
      return cached;
    };
    const flush = async (): Promise<void> => {
      for (const chunk of chunks(newCalls.splice(0))) {
        await session.run(
          `INSERT INTO ${calls} (${CALL_COLUMNS.join(', ')}) VALUES ${placeholders(chunk.length, CALL_COLUMNS.length)}`,
          chunk.flatMap(callValues),
        );
      }
      const changed = [...changedCalls.values()];
      changedCalls.clear();
      if (postgres) {
        for (const chunk of chunks(changed)) {
          // One statement for every changed call of the transaction.
          await session.run(
            `WITH v (run_id, turn, call_id, state, result_json, journal_seq, updated_at) AS (VALUES ${chunk
              .map(() => '(?, CAST(? AS INTEGER), ?, ?, ?, CAST(? AS BIGINT), ?)')
              .join(', ')}) UPDATE ${calls} AS c SET state = v.state, result_json = v.result_json, ` +
              'journal_seq = v.journal_seq, updated_at = v.updated_at FROM v ' +
              'WHERE c.run_id = v.run_id AND c.turn = v.turn AND c.call_id = v.call_id',
            chunk.flatMap((row) => [
              row.runId,
              row.turn,
              row.callId,
              row.state,
              row.resultJson,
              row.journalSeq,
              row.updatedAt,
            ]),
          );
        }
      } else {
        // SQLite runs in this process: a prepared statement per row costs microseconds, not a round trip.
        for (const row of changed) {
          await session.run(
            `UPDATE ${calls} SET state = ?, result_json = ?, journal_seq = ?, updated_at = ? WHERE run_id = ? AND turn = ? AND call_id = ?`,
            [row.state, row.resultJson, row.journalSeq, row.updatedAt, row.runId, row.turn, row.callId],
          );
        }
      }
      const rows = newRows.splice(0);
      const last = rows.at(-1);
      // The head's move, with its keyed mark set by the first keyed row (and never cleared): same statement.
      const firstKeyed = rows.find((row) => row.keyId !== null && row.keyId !== undefined)?.seq;
      const moveHead =
        firstKeyed === undefined
          ? `UPDATE ${headTable} SET seq = ?, hash = ? WHERE id = 1`
          : `UPDATE ${headTable} SET seq = ?, hash = ?, keyed_since = COALESCE(keyed_since, ?) WHERE id = 1`;
      const headValues = (at: StoredJournalRow) =>
        firstKeyed === undefined ? [at.seq, at.hash] : [at.seq, at.hash, firstKeyed];
      const batches = chunks(rows);
      for (const [index, chunk] of batches.entries()) {
        const insert = `INSERT INTO ${journal} (seq, run_id, kind, prev_hash, hash, record_json, key_id) VALUES ${placeholders(chunk.length, 7)}`;
        const values = chunk.flatMap((row) => [
          row.seq,
          row.runId,
          row.kind,
          row.prevHash,
          row.hash,
          row.recordJson,
          row.keyId ?? null,
        ]);
        if (postgres && last !== undefined && index === batches.length - 1) {
          // The last rows and the head's move in one statement: one round trip.
          await session.run(`WITH appended AS (${insert}) ${moveHead}`, [...values, ...headValues(last)]);
        } else {
          await session.run(insert, values);
        }
      }
      if (!postgres && last !== undefined) {
        await session.run(moveHead, headValues(last));
      }
    };

    return {
      flush,
      getRun: async (runId) => {
        if (runCache.has(runId)) return runCache.get(runId);
        const [row] = await session.all(`SELECT * FROM ${runs} WHERE run_id = ?`, [runId]);
        const run = row === undefined ? undefined : runRowOf(row);
        runCache.set(runId, run);
        return run;
      },
      getCalls: async (runId) =>
        [...(await callsOf(runId)).values()].sort((a, b) => a.turn - b.turn || a.position - b.position),
      getCall: async (runId, turn, callId) => (await callsOf(runId, turn)).get(callKey({ turn, callId })),
      // Asked for only by a run whose state column is a head, which only a store at schema 4 holds.
      getItems: async (runId) =>
        (await session.all(`SELECT * FROM ${items} WHERE run_id = ? ORDER BY part, idx`, [runId])).map(itemRowOf),
      insertItems: async (rows) => {
        for (const chunk of chunks(rows)) {
          await session.run(
            `INSERT INTO ${items} (run_id, part, idx, item_json) VALUES ${placeholders(chunk.length, 4)}`,
            chunk.flatMap((row) => [row.runId, row.part, row.idx, row.itemJson]),
          );
        }
      },
      deleteItems: async (runId, parts) => {
        if (parts === undefined) {
          await session.run(`DELETE FROM ${items} WHERE run_id = ?`, [runId]);
          return;
        }
        for (const part of parts)
          await session.run(`DELETE FROM ${items} WHERE run_id = ? AND part = ?`, [runId, part]);
      },
      head: async () => {
        if (!headRead) {
          const [row] = await session.all(`SELECT ${headColumns} FROM ${headTable} WHERE id = 1`);
          head = row === undefined ? undefined : headOf(row);
          headRead = true;
        }
        return head;
      },
      journalRows: async ({ afterSeq, limit, runId }) => {
        await flush();
        const columns = `seq, run_id, kind, prev_hash, hash, record_json, ${this.#keyColumn}`;
        const rows =
          runId === undefined
            ? await session.all(`SELECT ${columns} FROM ${journal} WHERE seq > ? ORDER BY seq LIMIT ?`, [
                afterSeq,
                limit,
              ])
            : await session.all(`SELECT ${columns} FROM ${journal} WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?`, [
                runId,
                afterSeq,
                limit,
              ]);
        return rows.map(
          (row): StoredJournalRow => ({
            seq: Number(row.seq),
            prevHash: String(row.prev_hash),
            hash: String(row.hash),
            recordJson: String(row.record_json),
            runId: String(row.run_id),
            kind: String(row.kind),
            keyId: text(row.key_id),
          }),
        );
      },
      seqOfHash: async (hash) => {
        await flush();
        const [row] = await session.all(`SELECT seq FROM ${journal} WHERE hash = ? ORDER BY seq LIMIT 1`, [hash]);
        return row === undefined ? undefined : Number(row.seq);
      },
      decidedCalls: async () =>
        (
          await session.all(
            `SELECT run_id, turn, call_id, tool_name, input_digest, approved, journal_seq FROM ${calls} ORDER BY run_id, turn, call_id`,
          )
        ).map((row) => ({
          runId: String(row.run_id),
          turn: Number(row.turn),
          callId: String(row.call_id),
          toolName: String(row.tool_name),
          inputDigest: String(row.input_digest),
          approved: Number(row.approved) === 1,
          journalSeq: integer(row.journal_seq),
        })),
      runOwners: async () =>
        (await session.all(`SELECT run_id, session_id, human_id FROM ${runs} ORDER BY run_id`)).map((row) => ({
          runId: String(row.run_id),
          sessionId: String(row.session_id),
          humanId: String(row.human_id),
        })),
      insertRun: async (row) => {
        await session.run(
          `INSERT INTO ${runs} (${RUN_COLUMNS.join(', ')}) VALUES (${RUN_COLUMNS.map(() => '?').join(', ')})`,
          runValues(row),
        );
        runCache.set(row.runId, row);
      },
      updateRun: async (row) => {
        // Only the columns that changed since this transaction read the row: a claim does not write the
        // run's stored conversation back (it is the largest column by far).
        const before = runCache.get(row.runId);
        const values = runValues(row);
        const previous = before === undefined ? undefined : runValues(before);
        const changed = RUN_COLUMNS.flatMap((_column, index) =>
          index === 0 || (previous !== undefined && previous[index] === values[index]) ? [] : [index],
        );
        if (changed.length > 0) {
          await session.run(
            `UPDATE ${runs} SET ${changed.map((index) => `${RUN_COLUMNS[index]} = ?`).join(', ')} WHERE run_id = ?`,
            [...changed.map((index) => values[index] ?? null), row.runId],
          );
        }
        runCache.set(row.runId, row);
      },
      insertCall: async (row) => {
        const known = await callsOf(row.runId, row.turn);
        // The primary key's check, here rather than at the flush, so it fails where the caller wrote it.
        if (known.has(callKey(row))) {
          throw new Error(`call "${row.callId}" of turn ${row.turn} of run "${row.runId}" is recorded already`);
        }
        known.set(callKey(row), row);
        newCalls.push(row);
      },
      updateCall: async (row) => {
        const known = await callsOf(row.runId, row.turn);
        const key = callKey(row);
        const before = known.get(key);
        if (before === undefined) return; // as an UPDATE of no row
        const updated = {
          ...before,
          state: row.state,
          resultJson: row.resultJson,
          journalSeq: row.journalSeq,
          updatedAt: row.updatedAt,
        };
        known.set(key, updated);
        // A call inserted by this transaction is still waiting in `newCalls`: change it there.
        const pending = newCalls.findIndex((call) => call.runId === row.runId && callKey(call) === key);
        if (pending === -1) changedCalls.set(`${row.runId}\u0000${key}`, updated);
        else newCalls[pending] = updated;
      },
      appendJournal: async (row: StoredJournalRow) => {
        newRows.push(row);
        const keyedSince = head?.keyedSince ?? (row.keyId === null || row.keyId === undefined ? undefined : row.seq);
        head = { seq: row.seq, hash: row.hash, ...(keyedSince === undefined ? {} : { keyedSince }) };
        headRead = true;
      },
    };
  }
}

/** Rows per multi-row statement: far below both databases' limits on bound parameters. */
const CHUNK = 200;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < rows.length; index += CHUNK) out.push(rows.slice(index, index + CHUNK));
  return out;
}

function placeholders(rows: number, columns: number): string {
  const tuple = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
  return Array.from({ length: rows }, () => tuple).join(', ');
}

function callKey(row: { readonly turn: number; readonly callId: string }): string {
  return `${row.turn}/${row.callId}`;
}

function headOf(row: Record<string, unknown>): StoredJournalHead {
  const keyedSince = row.keyed_since === null || row.keyed_since === undefined ? undefined : Number(row.keyed_since);
  return { seq: Number(row.seq), hash: String(row.hash), ...(keyedSince === undefined ? {} : { keyedSince }) };
}

function runValues(row: RunRow): (string | number | null)[] {
  return [
    row.runId,
    row.sessionId,
    row.humanId,
    row.status,
    row.revision,
    row.turn,
    row.pausedJson,
    row.pausedDigest,
    row.itemsJson,
    row.resultJson,
    row.catalogueJson,
    row.claimToken,
    row.claimWorker,
    row.claimedAt,
    row.leaseExpiresAt,
    row.error,
    row.createdAt,
    row.updatedAt,
  ];
}

function callValues(row: CallRow): (string | number | null)[] {
  return [
    row.runId,
    row.turn,
    row.callId,
    row.position,
    row.toolName,
    row.inputDigest,
    row.approved ? 1 : 0,
    row.note,
    row.state,
    row.resultJson,
    row.journalSeq,
    row.updatedAt,
  ];
}

// PostgreSQL returns BIGINT as text; both databases return NULL as null.
function text(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function integer(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

function runRowOf(row: Record<string, unknown>): RunRow {
  return {
    runId: String(row.run_id),
    sessionId: String(row.session_id),
    humanId: String(row.human_id),
    status: String(row.status) as RunStatus,
    revision: Number(row.revision),
    turn: integer(row.turn),
    pausedJson: text(row.paused_json),
    pausedDigest: text(row.paused_digest),
    // Absent below schema 4 (a store opened read-only before its migration).
    itemsJson: text(row.items_json),
    resultJson: text(row.result_json),
    catalogueJson: String(row.catalogue_json),
    claimToken: text(row.claim_token),
    claimWorker: text(row.claim_worker),
    claimedAt: text(row.claimed_at),
    leaseExpiresAt: text(row.lease_expires_at),
    error: text(row.error),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
}

function itemRowOf(row: Record<string, unknown>): StateItemRow {
  return {
    runId: String(row.run_id),
    part: String(row.part) as StateItemRow['part'],
    idx: Number(row.idx),
    itemJson: String(row.item_json),
  };
}

function callRowOf(row: Record<string, unknown>): CallRow {
  return {
    runId: String(row.run_id),
    turn: Number(row.turn),
    callId: String(row.call_id),
    position: Number(row.position),
    toolName: String(row.tool_name),
    inputDigest: String(row.input_digest),
    approved: Number(row.approved) === 1,
    note: text(row.note),
    state: String(row.state) as CallState,
    resultJson: text(row.result_json),
    journalSeq: integer(row.journal_seq),
    updatedAt: String(row.updated_at),
  };
}
