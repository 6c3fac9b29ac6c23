// The durable phase's two sides do the same work: the floor commits one "started" row and one outcome per
// call, a turn at a time; the runner runs every call once, under a start record and a recorded result.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '@toolcircuit/stores/sqlite';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { durableFloor } from '../../src/durable/durable-floor.js';
import { durableRunnerRun } from '../../src/durable/durable-runner-run.js';
import { sqliteFloor } from '../../src/durable/floor-database.js';

const dir = mkdtempSync(join(tmpdir(), 'toolcircuit-bench-durable-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const scenario = { calls: 3, turns: 2 };

describe('durable phase', () => {
  it('the floor commits a started row and an outcome for every call, the confirmed floor its state and decisions too', async () => {
    const database = sqliteFloor(dir);
    await durableFloor(scenario, database)('plain');
    await durableFloor(scenario, database, { confirmed: true })('confirmed');
    await database.close();
    const db = new Database(join(dir, 'floor.sqlite'), { readonly: true });
    const count = (table: string, runId: string) =>
      (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE run_id = ?`).get(runId) as { n: number }).n;
    expect(count('started', 'plain')).toBe(6);
    expect(count('outcomes', 'plain')).toBe(6);
    expect(count('decisions', 'plain')).toBe(0);
    expect(count('decisions', 'confirmed')).toBe(6);
    expect(count('runs', 'confirmed')).toBe(1);
    const outcomes = db
      .prepare('SELECT result, is_error FROM outcomes WHERE run_id = ? ORDER BY turn, call_id')
      .all('plain');
    expect(outcomes).toContainEqual({ result: 'sent 10 to supplier-0-0', is_error: 0 });
    db.close();
  });

  it('the runner runs every call once, each under a start record and a recorded result', async () => {
    const store = await openSqliteStore({ dataDir: dir });
    await durableRunnerRun(scenario, store)('run-1');
    const record = await store.getRun('run-1');
    expect(record?.status).toBe('completed');
    expect(record?.calls.map((call) => call.state)).toEqual(Array(6).fill('done'));
    const kinds = (await store.readJournal({ runId: 'run-1' })).map((row) =>
      row.record.kind === 'call' ? row.record.verdict : row.record.kind,
    );
    expect(kinds.filter((kind) => kind === 'start')).toHaveLength(6);
    expect(kinds.filter((kind) => kind === 'executed')).toHaveLength(6);
    expect((await store.verifyJournal()).ok).toBe(true);
    await store.close();
  });
});
