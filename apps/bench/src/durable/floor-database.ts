import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

/** One "started" row per call, written before the calls run. */
export interface StartedRow {
  readonly callId: string;
  readonly toolName: string;
  readonly inputJson: string;
}

/** One outcome row per call, written once every call of the turn has answered. */
export interface OutcomeRow {
  readonly callId: string;
  readonly resultText: string;
  readonly isError: boolean;
}

/**
 * The commits a durable exactly-once-or-unknown call needs, and nothing else: the calls of a turn are
 * recorded as started in one transaction before any of them runs, and their outcomes in one transaction
 * after. After a crash, a started call without an outcome is "unknown"; one without a start never ran.
 */
export interface FloorDatabase {
  commitStarted(runId: string, turn: number, rows: readonly StartedRow[]): Promise<void>;
  commitOutcomes(runId: string, turn: number, rows: readonly OutcomeRow[]): Promise<void>;
  /**
   * What a human's confirmation adds, for the companion floor: the run's state stored where it waits
   * (the conversation and the calls awaiting a decision), and the decisions recorded before anything runs.
   */
  commitRunState(runId: string, turn: number, stateJson: string): Promise<void>;
  commitDecisions(runId: string, turn: number, callIds: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** SQLite with the store's own settings (WAL, synchronous = FULL, busy timeout), statements prepared once. */
export function sqliteFloor(dir: string): FloorDatabase {
  const db = new Database(join(dir, 'floor.sqlite'));
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.exec(`CREATE TABLE started (run_id TEXT NOT NULL, turn INTEGER NOT NULL, call_id TEXT NOT NULL,
    tool_name TEXT NOT NULL, input_json TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (run_id, turn, call_id)) STRICT`);
  db.exec(`CREATE TABLE outcomes (run_id TEXT NOT NULL, turn INTEGER NOT NULL, call_id TEXT NOT NULL,
    result TEXT NOT NULL, is_error INTEGER NOT NULL, at TEXT NOT NULL, PRIMARY KEY (run_id, turn, call_id)) STRICT`);
  db.exec(`CREATE TABLE runs (run_id TEXT PRIMARY KEY NOT NULL, turn INTEGER NOT NULL, state_json TEXT NOT NULL,
    updated_at TEXT NOT NULL) STRICT`);
  db.exec(`CREATE TABLE decisions (run_id TEXT NOT NULL, turn INTEGER NOT NULL, call_id TEXT NOT NULL,
    approved INTEGER NOT NULL, at TEXT NOT NULL, PRIMARY KEY (run_id, turn, call_id)) STRICT`);
  const upsertRun = db.prepare(
    'INSERT INTO runs VALUES (?, ?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET turn = excluded.turn, state_json = excluded.state_json, updated_at = excluded.updated_at',
  );
  const insertDecision = db.prepare('INSERT INTO decisions VALUES (?, ?, ?, 1, ?)');
  const insertStarted = db.prepare('INSERT INTO started VALUES (?, ?, ?, ?, ?, ?)');
  const insertOutcome = db.prepare('INSERT INTO outcomes VALUES (?, ?, ?, ?, ?, ?)');
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  return {
    async commitStarted(runId, turn, rows) {
      const at = new Date().toISOString();
      begin.run();
      for (const row of rows) insertStarted.run(runId, turn, row.callId, row.toolName, row.inputJson, at);
      commit.run();
    },
    async commitOutcomes(runId, turn, rows) {
      const at = new Date().toISOString();
      begin.run();
      for (const row of rows) insertOutcome.run(runId, turn, row.callId, row.resultText, row.isError ? 1 : 0, at);
      commit.run();
    },
    async commitRunState(runId, turn, stateJson) {
      begin.run();
      upsertRun.run(runId, turn, stateJson, new Date().toISOString());
      commit.run();
    },
    async commitDecisions(runId, turn, callIds) {
      const at = new Date().toISOString();
      begin.run();
      for (const callId of callIds) insertDecision.run(runId, turn, callId, at);
      commit.run();
    },
    async close() {
      db.close();
    },
  };
}

/** Drops a schema the bench made (the store's or the floor's). */
export async function dropSchema(connectionString: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/** PostgreSQL: one multi-row INSERT per commit, in a schema of its own. */
export async function postgresFloor(connectionString: string, schema: string): Promise<FloorDatabase> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  pool.on('error', () => {});
  await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await pool.query(`CREATE SCHEMA ${schema}`);
  await pool.query(`CREATE TABLE ${schema}.started (run_id TEXT NOT NULL, turn INTEGER NOT NULL, call_id TEXT NOT NULL,
    tool_name TEXT NOT NULL, input_json TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (run_id, turn, call_id))`);
  await pool.query(`CREATE TABLE ${schema}.outcomes (run_id TEXT NOT NULL, turn INTEGER NOT NULL, call_id TEXT NOT NULL,
    result TEXT NOT NULL, is_error BOOLEAN NOT NULL, at TEXT NOT NULL, PRIMARY KEY (run_id, turn, call_id))`);
  await pool.query(`CREATE TABLE ${schema}.runs (run_id TEXT PRIMARY KEY, turn INTEGER NOT NULL, state_json TEXT NOT NULL,
    updated_at TEXT NOT NULL)`);
  await pool.query(`CREATE TABLE ${schema}.decisions (run_id TEXT NOT NULL, turn INTEGER NOT NULL, call_id TEXT NOT NULL,
    approved BOOLEAN NOT NULL, at TEXT NOT NULL, PRIMARY KEY (run_id, turn, call_id))`);
  const insertMany = async (table: string, width: number, values: unknown[][], suffix = '') => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const tuples = values.map(
        (_, row) => `(${Array.from({ length: width }, (_, col) => `$${row * width + col + 1}`).join(', ')})`,
      );
      await client.query(`INSERT INTO ${schema}.${table} VALUES ${tuples.join(', ')}${suffix}`, values.flat());
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  };
  return {
    commitStarted(runId, turn, rows) {
      const at = new Date().toISOString();
      return insertMany(
        'started',
        6,
        rows.map((row) => [runId, turn, row.callId, row.toolName, row.inputJson, at]),
      );
    },
    commitOutcomes(runId, turn, rows) {
      const at = new Date().toISOString();
      return insertMany(
        'outcomes',
        6,
        rows.map((row) => [runId, turn, row.callId, row.resultText, row.isError, at]),
      );
    },
    commitRunState(runId, turn, stateJson) {
      return insertMany(
        'runs',
        4,
        [[runId, turn, stateJson, new Date().toISOString()]],
        ' ON CONFLICT (run_id) DO UPDATE SET turn = excluded.turn, state_json = excluded.state_json, updated_at = excluded.updated_at',
      );
    },
    commitDecisions(runId, turn, callIds) {
      const at = new Date().toISOString();
      return insertMany(
        'decisions',
        5,
        callIds.map((callId) => [runId, turn, callId, true, at]),
      );
    },
    async close() {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
      await pool.end();
    },
  };
}
