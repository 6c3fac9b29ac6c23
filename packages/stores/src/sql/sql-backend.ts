import type { JournalHead } from '../journal/journal-record.js';
import type { CallState, RunStatus } from '../store/durable-store.js';
import type {
  CallRow,
  ReadTransaction,
  RunRow,
  StoreBackend,
  StoredJournalRow,
  WriteTransaction,
} from '../store/store-backend.js';
import type { SqlConnection, SqlSession } from './sql-connection.js';
import { appliedVersion } from './sql-migrations.js';

const RUN_COLUMNS = [
  'run_id',
  'session_id',
  'human_id',
  'status',
  'revision',
  'turn',
  'paused_json',
  'paused_digest',
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

/** The store backend for SQLite and PostgreSQL: the same statements, placeholders numbered for PostgreSQL. */
export class SqlBackend implements StoreBackend {
  readonly #connection: SqlConnection;
  readonly #t: (name: string) => string;
  readonly #keyColumn: string;

  /**
   * `schemaVersion`: the store's, so a journal opened read-only at an older version (no `key_id` column)
   * is still read, as the unkeyed chain it is.
   */
  constructor(connection: SqlConnection, schemaVersion: number) {
    this.#connection = connection;
    this.#t = (name) => connection.table(name);
    this.#keyColumn = schemaVersion >= KEYED_JOURNAL_VERSION ? 'key_id' : 'NULL AS key_id';
  }

  write<T>(work: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    return this.#connection.transaction('write', async (session) => {
      if (this.#connection.dialect === 'postgres') {
        // Every write locks the head row first: writes are serialised across workers, so each
        // check-then-write of the store sees the latest committed state and cannot deadlock.
        await session.all(`SELECT seq FROM ${this.#t('journal_head')} WHERE id = 1 FOR UPDATE`);
      }
      return work(this.#transaction(session));
    });
  }

  read<T>(work: (tx: ReadTransaction) => Promise<T>): Promise<T> {
    return this.#connection.transaction('read', (session) => work(this.#transaction(session)));
  }

  schemaVersion(): Promise<number> {
    return appliedVersion(this.#connection);
  }

  close(): Promise<void> {
    return this.#connection.close();
  }

  #transaction(session: SqlSession): WriteTransaction {
    const t = this.#t;
    const runs = t('runs');
    const calls = t('run_calls');
    const journal = t('journal');
    const head = t('journal_head');
    return {
      getRun: async (runId) => {
        const [row] = await session.all(`SELECT * FROM ${runs} WHERE run_id = ?`, [runId]);
        return row === undefined ? undefined : runRowOf(row);
      },
      getCalls: async (runId) =>
        (await session.all(`SELECT * FROM ${calls} WHERE run_id = ? ORDER BY turn, position`, [runId])).map(callRowOf),
      getCall: async (runId, turn, callId) => {
        const [row] = await session.all(`SELECT * FROM ${calls} WHERE run_id = ? AND turn = ? AND call_id = ?`, [
          runId,
          turn,
          callId,
        ]);
        return row === undefined ? undefined : callRowOf(row);
      },
      head: async () => {
        const [row] = await session.all(`SELECT seq, hash FROM ${head} WHERE id = 1`);
        return row === undefined ? undefined : ({ seq: Number(row.seq), hash: String(row.hash) } satisfies JournalHead);
      },
      journalRows: async ({ afterSeq, limit, runId }) => {
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
        const [row] = await session.all(`SELECT seq FROM ${journal} WHERE hash = ? ORDER BY seq LIMIT 1`, [hash]);
        return row === undefined ? undefined : Number(row.seq);
      },
      insertRun: async (row) => {
        await session.run(
          `INSERT INTO ${runs} (${RUN_COLUMNS.join(', ')}) VALUES (${RUN_COLUMNS.map(() => '?').join(', ')})`,
          runValues(row),
        );
      },
      updateRun: async (row) => {
        const columns = RUN_COLUMNS.slice(1);
        await session.run(
          `UPDATE ${runs} SET ${columns.map((column) => `${column} = ?`).join(', ')} WHERE run_id = ?`,
          [...runValues(row).slice(1), row.runId],
        );
      },
      insertCall: async (row) => {
        await session.run(
          `INSERT INTO ${calls} (${CALL_COLUMNS.join(', ')}) VALUES (${CALL_COLUMNS.map(() => '?').join(', ')})`,
          callValues(row),
        );
      },
      updateCall: async (row) => {
        await session.run(
          `UPDATE ${calls} SET state = ?, result_json = ?, journal_seq = ?, updated_at = ? WHERE run_id = ? AND turn = ? AND call_id = ?`,
          [row.state, row.resultJson, row.journalSeq, row.updatedAt, row.runId, row.turn, row.callId],
        );
      },
      appendJournal: async (row: StoredJournalRow) => {
        await session.run(
          `INSERT INTO ${journal} (seq, run_id, kind, prev_hash, hash, record_json, key_id) VALUES (?, ?, ?, ?, ?, ?, ?)`,
          [row.seq, row.runId, row.kind, row.prevHash, row.hash, row.recordJson, row.keyId ?? null],
        );
        await session.run(`UPDATE ${head} SET seq = ?, hash = ? WHERE id = 1`, [row.seq, row.hash]);
      },
    };
  }
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
