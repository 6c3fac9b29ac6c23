// The durable phase's sides do the same work: the floor commits one "started" row and one outcome per
// call, a turn at a time; the runner runs every call once, under a start record and a recorded result,
// whether it needs no confirmation (the goal's scenario) or every turn is confirmed (the companion).
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

  it('the runner runs every call once, each under a start record and a recorded result, with or without confirmation', async () => {
    const store = await openSqliteStore({ dataDir: dir });
    await durableRunnerRun(scenario, store, { confirmed: false })('run-1');
    await durableRunnerRun(scenario, store, { confirmed: true })('run-2');
    for (const runId of ['run-1', 'run-2']) {
      const record = await store.getRun(runId);
      expect(record?.status).toBe('completed');
      expect(record?.calls.map((call) => call.state)).toEqual(Array(6).fill('done'));
      const kinds = (await store.readJournal({ runId })).map((row) =>
        row.record.kind === 'call' ? row.record.verdict : row.record.kind,
      );
      expect(kinds.filter((kind) => kind === 'start')).toHaveLength(6);
      expect(kinds.filter((kind) => kind === 'executed')).toHaveLength(6);
      // Only the companion scenario asks a human: one decision per call, and calls that waited for it.
      expect(kinds.filter((kind) => kind === 'decision')).toHaveLength(runId === 'run-2' ? 6 : 0);
      expect(kinds.filter((kind) => kind === 'awaiting_confirmation')).toHaveLength(runId === 'run-2' ? 6 : 0);
    }
    expect((await store.verifyJournal()).ok).toBe(true);
    await store.close();
  });
});
