import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidStoreOptionsError } from '../../src/errors/invalid-store-options-error.js';
import type { JournalPolicy, RawJournalRow } from '../../src/index.js';
import { openSqliteStore, SQLITE_STORE_FILE, sqliteMigrations } from '../../src/sqlite/index.js';
import { describeLeaseConformance } from '../store/lease-conformance.js';
import { describeStoreConformance, pausedText, type StoreHarness } from '../store/store-conformance.js';
import { indexColumns } from '../support/raw-rows.js';
import { marie, startPaused, world } from '../support/world.js';

const root = mkdtempSync(join(tmpdir(), 'toolcircuit-sqlite-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

function freshFile(): string {
  counter += 1;
  return join(root, `store-${counter}.sqlite`);
}

/** A plain connection to the file, as anyone with access to it has, with the append-only triggers dropped. */
function raw(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  db.exec('DROP TRIGGER IF EXISTS journal_no_update; DROP TRIGGER IF EXISTS journal_no_delete;');
  return db;
}

async function sqliteHarness(options: { readonly journal?: JournalPolicy } = {}): Promise<StoreHarness> {
  const file = freshFile();
  const policy = options.journal === undefined ? {} : { journal: options.journal };
  const store = await openSqliteStore({ file, ...policy });
  // A second connection to the same file: what a second worker process opens.
  const second = await openSqliteStore({ file, ...policy });
  return {
    store,
    second,
    tamper: {
      rows: async () => {
        const db = new Database(file, { readonly: true });
        try {
          return db
            .prepare(
              'SELECT seq, prev_hash AS prevHash, hash, record_json AS recordJson, key_id AS keyId FROM journal ORDER BY seq',
            )
            .all() as RawJournalRow[];
        } finally {
          db.close();
        }
      },
      replaceJournal: async (rows, head) => {
        const db = raw(file);
        try {
          db.transaction(() => {
            db.prepare('DELETE FROM journal').run();
            const insert = db.prepare(
              'INSERT INTO journal (seq, run_id, kind, prev_hash, hash, record_json, key_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
            );
            for (const row of rows) {
              const { runId, kind } = indexColumns(row);
              insert.run(row.seq, runId, kind, row.prevHash, row.hash, row.recordJson, row.keyId ?? null);
            }
            db.prepare('UPDATE journal_head SET seq = ?, hash = ? WHERE id = 1').run(head.seq, head.hash);
          })();
        } finally {
          db.close();
        }
        return store;
      },
      replacePausedState: async (runId, paused, layout) => {
        const db = raw(file);
        try {
          db.prepare('UPDATE runs SET paused_json = ? WHERE run_id = ?').run(pausedText(paused, layout), runId);
        } finally {
          db.close();
        }
      },
    },
    close: async () => {
      await store.close();
      await second.close();
    },
  };
}

describeStoreConformance('SQLite', sqliteHarness);
describeLeaseConformance('SQLite', sqliteHarness);

describe('SQLite store', () => {
  it('lives in the application data directory, created if needed', async () => {
    const dataDir = join(root, 'app-data', 'nested');
    const store = await openSqliteStore({ dataDir });
    expect(store.file).toBe(join(dataDir, SQLITE_STORE_FILE));
    await store.close();
    await expect(openSqliteStore({})).rejects.toBeInstanceOf(InvalidStoreOptionsError);
  });

  it('records versioned migrations once, and reopening keeps the data and migrates nothing', async () => {
    const file = freshFile();
    const first = await openSqliteStore({ file });
    await startPaused(world(), first);
    await first.close();
    const again = await openSqliteStore({ file });
    expect(await again.schemaVersion()).toBe(sqliteMigrations.length);
    expect((await again.getRun('run-1'))?.status).toBe('paused');
    await again.close();
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all()).toEqual(
      sqliteMigrations.map(({ version, name }) => ({ version, name })),
    );
    db.close();
  });

  it('refuses a schema newer than it knows, without touching it', async () => {
    const file = freshFile();
    await (await openSqliteStore({ file })).close();
    const db = new Database(file);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'future', 'x')").run();
    db.close();
    await expect(openSqliteStore({ file })).rejects.toThrow(
      new RegExp(`version 99, newer than the ${sqliteMigrations.length} `),
    );
  });

  it('the database itself refuses to change or delete journal rows', async () => {
    const file = freshFile();
    const store = await openSqliteStore({ file });
    await startPaused(world(), store);
    const db = new Database(file);
    expect(() => db.prepare("UPDATE journal SET record_json = '{}' WHERE seq = 1").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM journal').run()).toThrow(/append-only/);
    // The head row stays, and so does its keyed mark once set.
    expect(() => db.prepare('DELETE FROM journal_head').run()).toThrow(/cannot be deleted/);
    db.prepare('UPDATE journal_head SET keyed_since = 1').run();
    expect(() => db.prepare('UPDATE journal_head SET keyed_since = NULL').run()).toThrow(/stays keyed/);
    db.close();
    // Now marked keyed, with unkeyed entries: refused.
    expect(await store.verifyJournal()).toMatchObject({ ok: false, seq: 1, problem: 'unkeyed' });
    await store.close();
  });

  it('a failed write rolls back: no half claim is left in the file', async () => {
    const file = freshFile();
    const store = await openSqliteStore({ file });
    const w = world();
    const paused = await startPaused(w, store);
    const record = await store.getRun('run-1');
    const decision = {
      callId: 'pay',
      index: 1,
      toolName: 'transfer',
      inputDigest: paused.pending[0]?.inputDigest ?? '',
      approved: true,
    };
    await expect(
      store.claimRun({
        runId: 'run-1',
        expectedRevision: record?.revision ?? 0,
        claim: { token: 't', workerId: 'w', claimedAt: 'a', leaseExpiresAt: 'b' },
        turn: 1,
        decisions: [decision, decision],
      }),
    ).rejects.toThrow();
    await store.close();
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT status FROM runs').all()).toEqual([{ status: 'paused' }]);
    // Only the lookup's row, made when it started: no decision row of the failed claim.
    expect(db.prepare('SELECT call_id FROM run_calls').all()).toEqual([{ call_id: 'lookup' }]);
    expect(db.prepare("SELECT COUNT(*) AS n FROM journal WHERE kind = 'decision'").get()).toEqual({ n: 0 });
    db.close();
    const reopened = await openSqliteStore({ file });
    const result = await w
      .runner(reopened, [
        {
          content: [{ type: 'text', text: 'ok' }],
          stopReason: { unified: 'end_turn', raw: 'end_turn' },
          usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        },
      ])
      .resume('run-1', [{ callId: 'pay', approved: true, inputDigest: decision.inputDigest }], { session: marie() });
    expect(result.status).toBe('completed');
    expect(w.executions).toHaveLength(1);
    await reopened.close();
  });
});
