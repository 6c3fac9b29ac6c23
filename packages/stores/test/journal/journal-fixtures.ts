// Journals to tamper with, on SQLite and PostgreSQL: written by the real stores through the durable runner,
// then opened raw (triggers dropped) the way someone with write access to the database would.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { DurableStore, JournalKey, JournalPolicy, ReadonlyJournal } from '../../src/index.js';
import { openPostgresJournal, openPostgresStore } from '../../src/postgres/index.js';
import { openSqliteJournal, openSqliteStore } from '../../src/sqlite/index.js';
import { approveAll, done, marie, startPaused, world } from '../support/world.js';
import type { RawJournalDb, TamperRow } from './tampering-cases.js';

/** A store written, closed, and reachable three ways: raw, through the API read-only, through the CLI's flags. */
export interface JournalUnderTest {
  readonly raw: RawJournalDb;
  open(): Promise<ReadonlyJournal>;
  /** `--sqlite <file>` or `--postgres <url> --schema <name>`. */
  readonly cliArgs: readonly string[];
  close(): Promise<void>;
}

export interface Dialect {
  readonly name: 'SQLite' | 'PostgreSQL';
  /** A fresh store holding the 9-entry journal of the tampering cases; `write` may add more. */
  journal(
    policy: JournalPolicy,
    write?: (store: DurableStore) => Promise<void>,
  ): Promise<{ store: DurableStore; under: JournalUnderTest }>;
}

/** A random key and the file the CLI reads it from. */
export function keyOnDisk(dir: string, id: string): { key: JournalKey; file: string } {
  const secret = randomBytes(32).toString('hex');
  const file = join(dir, `${id}.key`);
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return { key: { id, secret }, file };
}

/**
 * run-1 paused (the lookup's start and 2 call entries), decided (1), started (1), executed (1); run-2 paused
 * (3).
 */
export async function writeNineEntries(store: DurableStore): Promise<void> {
  const w = world();
  const paused = await startPaused(w, store);
  await w.runner(store, [done]).resume('run-1', approveAll(paused), { session: marie() });
  await startPaused(w, store, 'run-2');
}

export function sqliteDialect(root: string): Dialect {
  let count = 0;
  return {
    name: 'SQLite',
    async journal(policy, write = writeNineEntries) {
      count += 1;
      const file = join(root, `journal-${count}.sqlite`);
      const store = await openSqliteStore({ file, journal: policy });
      await write(store);
      return { store, under: sqliteUnderTest(file) };
    },
  };
}

function sqliteUnderTest(file: string): JournalUnderTest {
  const withDb = <T>(work: (db: Database.Database) => T): T => {
    const db = new Database(file);
    try {
      db.exec(
        'DROP TRIGGER IF EXISTS journal_no_update; DROP TRIGGER IF EXISTS journal_no_delete; ' +
          'DROP TRIGGER IF EXISTS journal_head_stays_keyed; DROP TRIGGER IF EXISTS journal_head_no_delete',
      );
      return work(db);
    } finally {
      db.close();
    }
  };
  const tables = (sql: string) =>
    sql
      .replaceAll('{journal}', 'journal')
      .replaceAll('{head}', 'journal_head')
      .replaceAll('{migrations}', 'schema_migrations')
      .replaceAll('{runs}', 'runs')
      .replaceAll('{calls}', 'run_calls')
      .replaceAll('{items}', 'run_items')
      .replaceAll('{events}', 'run_events');
  return {
    raw: {
      rows: async () =>
        withDb(
          (db) =>
            db
              .prepare(
                'SELECT seq, run_id AS runId, kind, prev_hash AS prevHash, hash, record_json AS recordJson, key_id AS keyId FROM journal ORDER BY seq',
              )
              .all() as TamperRow[],
        ),
      replace: async (rows, head) =>
        withDb((db) =>
          db.transaction(() => {
            db.prepare('DELETE FROM journal').run();
            const insert = db.prepare(
              'INSERT INTO journal (seq, run_id, kind, prev_hash, hash, record_json, key_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
            );
            for (const row of rows) {
              insert.run(row.seq, row.runId, row.kind, row.prevHash, row.hash, row.recordJson, row.keyId);
            }
            if (head !== undefined) {
              db.prepare('UPDATE journal_head SET seq = ?, hash = ? WHERE id = 1').run(head.seq, head.hash);
            }
          })(),
        ),
      sql: async (statement, params = []) =>
        withDb((db) => {
          db.prepare(tables(statement)).run(...params);
        }),
    },
    open: () => openSqliteJournal({ file }),
    cliArgs: ['--sqlite', file],
    close: async () => {},
  };
}

export function postgresDialect(url: string): Dialect {
  let count = 0;
  const schemas: string[] = [];
  return {
    name: 'PostgreSQL',
    async journal(policy, write = writeNineEntries) {
      count += 1;
      const schema = `tc_tamper_${process.pid}_${count}`;
      schemas.push(schema);
      await dropSchema(url, schema);
      const store = await openPostgresStore({ connectionString: url, schema, journal: policy, maxConnections: 2 });
      await write(store);
      return { store, under: postgresUnderTest(url, schema) };
    },
  };
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

function postgresUnderTest(url: string, schema: string): JournalUnderTest {
  const q = (name: string) => `"${schema}".${name}`;
  const withClient = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // The journal table itself may be gone (a tampering case drops it).
      if ((await client.query('SELECT to_regclass($1) AS t', [q('journal')])).rows[0]?.t !== null) {
        await client.query(`DROP TRIGGER IF EXISTS journal_no_change ON ${q('journal')}`);
      }
      await client.query(`DROP TRIGGER IF EXISTS journal_head_keyed ON ${q('journal_head')}`);
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const numbered = (sql: string) => {
    let index = 0;
    return sql
      .replaceAll('{journal}', q('journal'))
      .replaceAll('{head}', q('journal_head'))
      .replaceAll('{migrations}', q('schema_migrations'))
      .replaceAll('{runs}', q('runs'))
      .replaceAll('{calls}', q('run_calls'))
      .replaceAll('{items}', q('run_items'))
      .replaceAll('{events}', q('run_events'))
      .replace(/\?/g, () => `$${++index}`);
  };
  return {
    raw: {
      rows: () =>
        withClient(async (client) => {
          const { rows } = await client.query(
            `SELECT seq, run_id AS "runId", kind, prev_hash AS "prevHash", hash, record_json AS "recordJson", key_id AS "keyId" FROM ${q('journal')} ORDER BY seq`,
          );
          return rows.map((row) => ({ ...row, seq: Number(row.seq) }) as TamperRow);
        }),
      replace: (rows, head) =>
        withClient(async (client) => {
          await client.query('BEGIN');
          await client.query(`DELETE FROM ${q('journal')}`);
          for (const row of rows) {
            await client.query(
              `INSERT INTO ${q('journal')} (seq, run_id, kind, prev_hash, hash, record_json, key_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
              [row.seq, row.runId, row.kind, row.prevHash, row.hash, row.recordJson, row.keyId],
            );
          }
          if (head !== undefined) {
            await client.query(`UPDATE ${q('journal_head')} SET seq = $1, hash = $2 WHERE id = 1`, [
              head.seq,
              head.hash,
            ]);
          }
          await client.query('COMMIT');
        }),
      sql: (statement, params = []) =>
        withClient(async (client) => {
          await client.query(numbered(statement), [...params]);
        }),
    },
    open: () => openPostgresJournal({ connectionString: url, schema }),
    cliArgs: ['--postgres', url, '--schema', schema],
    close: () => dropSchema(url, schema),
  };
}

/** The BUILT `toolcircuit` binary, as users get it. */
export const CLI_BIN = fileURLToPath(new URL('../../../../apps/cli/dist/bin.js', import.meta.url));

export function assertCliBuilt(): void {
  if (!existsSync(CLI_BIN)) {
    throw new Error(
      `apps/cli is not built (${CLI_BIN} is missing). Run: pnpm exec turbo run build --filter=@toolcircuit/cli...`,
    );
  }
}

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `toolcircuit <args>` in a minimal environment (PATH only). */
export function toolcircuit(args: readonly string[], cwd: string): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_BIN, ...args],
      { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
