// What a durable run writes per turn does not grow with the conversation: a run of a few hundred turns on a
// real SQLite file, each turn one call whose (untrusted) result is about a kilobyte, with every statement the
// store sends counted in bytes (its SQL and its parameters). The bytes written between one call and the next
// (the call's journal entry and result, the next turn's state and start marker) are compared, the last ten
// turns against the first ten. Not timed: the bench measures time.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCatalogue, createSession, defineTool, everySession } from '@toolcircuit/core';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { BackedStore, createDurableRunner } from '../../src/index.js';
import { SqlBackend } from '../../src/sql/sql-backend.js';
import type { SqlConnection, SqlSession, SqlValue } from '../../src/sql/sql-connection.js';
import { openSqliteStore } from '../../src/sqlite/index.js';
import { openDatabase } from '../../src/sqlite/open-sqlite-store.js';
import { SqliteConnection } from '../../src/sqlite/sqlite-connection.js';

const root = mkdtempSync(join(tmpdir(), 'toolcircuit-bytes-per-turn-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const TURNS = 300;

/** The connection, with every statement's bytes (SQL and parameters, as UTF-8) added to `written`. */
function counting(inner: SqlConnection, written: { bytes: number }): SqlConnection {
  const size = (sql: string, params: readonly SqlValue[] = []) =>
    Buffer.byteLength(sql) +
    params.reduce<number>((sum, value) => sum + (typeof value === 'string' ? Buffer.byteLength(value) : 8), 0);
  const session = (raw: SqlSession): SqlSession => ({
    all: (sql, params) => {
      written.bytes += /^\s*(insert|update|delete|with)/i.test(sql) ? size(sql, params) : 0;
      return raw.all(sql, params);
    },
    run: (sql, params) => {
      written.bytes += size(sql, params);
      return raw.run(sql, params);
    },
  });
  return {
    dialect: inner.dialect,
    table: (name) => inner.table(name),
    transaction: (mode, work, opening) => inner.transaction(mode, (raw, opened) => work(session(raw), opened), opening),
    close: () => inner.close(),
  };
}

describe('bytes a durable run writes per turn', () => {
  it(`stay flat over ${TURNS} turns on SQLite: the last ten turns write at most 1.5× the first ten`, async () => {
    const file = join(root, 'long-run.sqlite');
    const migrated = await openSqliteStore({ file });
    const version = await migrated.schemaVersion();
    await migrated.close();
    const open = () => openDatabase(Database, file, false);
    const written = { bytes: 0 };
    const connection = new SqliteConnection(open(), realpathSync(file), { file, open, busyTimeoutMs: 5000 });
    const store = new BackedStore(new SqlBackend(counting(connection, written), version), {}, { location: file });

    // Sampled as each call runs: after its turn's state and start marker were committed.
    const atCall: number[] = [];
    const catalogue = createCatalogue([
      defineTool({
        name: 'read_page',
        description: 'Reads a page of a long document.',
        inputSchema: { type: 'object', properties: { page: { type: 'integer' } }, required: ['page'] },
        right: everySession,
        run: ({ page }: { page: number }) => {
          atCall.push(written.bytes);
          return `Page ${page}: ${'lorem ipsum dolor sit amet '.repeat(40)}`;
        },
      }),
    ]);
    const model = createScriptedModel([
      ...Array.from({ length: TURNS }, (_, turn) =>
        toolCallsTurn([{ id: `c${turn}`, name: 'read_page', input: { page: turn } }]),
      ),
      textTurn('Read it all.'),
    ]);
    const runner = createDurableRunner({ store, catalogue, model, maxTurns: TURNS + 1, workerId: 'reader' });
    const session = createSession({ id: 'session-long', humanId: 'rea' });
    try {
      const result = await runner.start({ session, messages: [{ role: 'user', content: 'Read the document.' }] });
      expect(result.status).toBe('completed');
      expect(atCall).toHaveLength(TURNS);
      const perTurn = atCall.slice(1).map((bytes, index) => bytes - (atCall[index] as number));
      const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
      const first = mean(perTurn.slice(0, 10));
      const last = mean(perTurn.slice(-10));
      expect(first).toBeGreaterThan(0);
      expect(last / first, `first ten turns: ${first} bytes each, last ten: ${last}`).toBeLessThanOrEqual(1.5);
      expect((await store.verifyJournal()).ok).toBe(true);
    } finally {
      await store.close();
    }
  });
});
