// `toolcircuit journal verify` as its users run it: the built CLI binary (scripts/test.sh builds every package
// first), spawned on stores this test writes from the stores' sources. Spawned rather than imported: no package
// imports an application (scripts/check-boundaries.mjs).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/postgres/index.js';
import { openSqliteStore } from '../../src/sqlite/index.js';
import { corruptJournalPage } from '../support/corrupt-page.js';
import { POSTGRES_MISSING, postgresTestUrl, requirePostgresInCi } from '../support/postgres-url.js';
import { approveAll, done, marie, startPaused, world } from '../support/world.js';

const BIN = fileURLToPath(new URL('../../../../apps/cli/dist/bin.js', import.meta.url));

const root = mkdtempSync(join(tmpdir(), 'toolcircuit-verify-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs `toolcircuit journal verify ARGV` in the test's folder with only PATH and `env` in its environment. */
function cli(argv: readonly string[], env: Record<string, string> = {}) {
  if (!existsSync(BIN)) throw new Error(`apps/cli is not built (${BIN} is missing): run pnpm build first`);
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [BIN, 'journal', 'verify', ...argv],
      { cwd: root, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function sqliteJournal(name: string): Promise<string> {
  const file = join(root, name);
  const store = await openSqliteStore({ file });
  const w = world();
  const paused = await startPaused(w, store);
  await w.runner(store, [done]).resume('run-1', approveAll(paused), { session: marie() });
  await store.close();
  return file;
}

describe('toolcircuit journal verify', () => {
  it('exits 0 on an intact journal and prints its head, usable as an anchor later', async () => {
    await sqliteJournal('intact.sqlite');
    const result = await cli(['--sqlite', 'intact.sqlite']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^journal intact: 6 entries, head 6:[0-9a-f]{64}\nnote: 6 entries are on the unkeyed chain/,
    );
    const anchor = /head (\d+:[0-9a-f]{64})/.exec(result.stdout)?.[1] ?? '';
    expect((await cli(['--sqlite', 'intact.sqlite', '--anchor', anchor])).code).toBe(0);
    const json = await cli(['--sqlite', 'intact.sqlite', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, entries: 6 });
  });

  it('exits 1 and names the entry when the journal was edited in the database', async () => {
    const file = await sqliteJournal('edited.sqlite');
    const db = new Database(file);
    db.exec('DROP TRIGGER journal_no_update');
    db.prepare(
      'UPDATE journal SET record_json = replace(record_json, \'"approved":true\', \'"approved":false\') WHERE seq = 4',
    ).run();
    db.close();
    const result = await cli(['--sqlite', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/journal TAMPERED: entry 4 edited: entry 4 does not match its hash/);
  });

  it('exits 1 when an entry was deleted, naming the missing one', async () => {
    const file = await sqliteJournal('deleted.sqlite');
    const db = new Database(file);
    db.exec('DROP TRIGGER journal_no_delete');
    db.prepare('DELETE FROM journal WHERE seq = 2').run();
    db.close();
    const result = await cli(['--sqlite', file, '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, seq: 2, problem: 'deleted' });
  });

  it('exits 1, not 2, on a store whose journal or run tables were dropped: damage, not "not a store"', async () => {
    for (const [table, problem] of [
      ['journal', 'deleted'],
      ['journal_head', 'head_missing'],
      ['run_calls', 'run_mismatch'],
    ] as const) {
      const file = await sqliteJournal(`dropped-${table}.sqlite`);
      const db = new Database(file);
      db.exec(`DROP TABLE ${table}`);
      db.close();
      const result = await cli(['--sqlite', file, '--json']);
      expect({ table, code: result.code, stderr: result.stderr }).toEqual({ table, code: 1, stderr: '' });
      expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, problem, message: expect.stringContaining('gone') });
    }
  });

  it('exits 1 when a decided call was changed in the run tables (outside the chain)', async () => {
    const file = await sqliteJournal('run-table.sqlite');
    const db = new Database(file);
    db.prepare("UPDATE run_calls SET approved = 0 WHERE call_id = 'pay'").run();
    db.close();
    const result = await cli(['--sqlite', file]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^journal TAMPERED: the run tables: the declined call "pay" \(turn 1\) of run "run-1" does not match entry 4, which decided it approved/,
    );
  });

  it('exits 1, never "internal error", on a store whose file is damaged, naming the first entry it cannot read', async () => {
    const file = join(root, 'damaged.sqlite');
    const store = await openSqliteStore({ file });
    const w = world();
    for (let index = 0; index < 40; index += 1) await startPaused(w, store, `run-${index}`);
    await store.close();
    corruptJournalPage(file);
    const result = await cli(['--sqlite', file, '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const finding = JSON.parse(result.stdout);
    expect(finding).toMatchObject({ ok: false, problem: 'corrupt' });
    expect(finding.seq).toBeGreaterThan(1);
    expect(finding.message).toMatch(/cannot be read from entry \d+ on: the database file is damaged/);
    const text = await cli(['--sqlite', file]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^journal DAMAGED: entry \d+ corrupt: /);
  });

  it('exits 2 on usage errors, a missing file, a file that is not a store, and a bad anchor', async () => {
    await sqliteJournal('usage.sqlite');
    const notAStore = join(root, 'other.sqlite');
    new Database(notAStore).close();
    writeFileSync(join(root, 'empty.sqlite'), '');
    const cases: [readonly string[], RegExp][] = [
      [[], /exactly one of --sqlite/],
      [['--sqlite', 'usage.sqlite', '--postgres', 'postgres://x'], /exactly one of --sqlite/],
      [['--sqlite', 'nope.sqlite'], /does not exist/],
      [['--sqlite', 'other.sqlite'], /not a toolcircuit store/],
      [['--sqlite', 'empty.sqlite'], /not a toolcircuit store/],
      [['--sqlite', 'usage.sqlite', '--anchor', '5:abc'], /--anchor: .*neither <seq>:<64 hex digits>/],
      [['--sqlite', 'usage.sqlite', '--schema', 's'], /--postgres only/],
      [['--postgres', 'env'], /TOOLCIRCUIT_POSTGRES_URL is not set/],
      [['--sqlite'], /argument missing|requires an argument|Option '--sqlite <value>'/i],
    ];
    // Each case is its own process: run them side by side.
    const results = await Promise.all(cases.map(([argv]) => cli(argv)));
    for (const [index, [argv, message]] of cases.entries()) {
      const result = results[index] as { code: number; stderr: string };
      expect({ argv, code: result.code }).toEqual({ argv, code: 2 });
      expect(result.stderr).toMatch(message);
    }
  });

  const url = postgresTestUrl();
  requirePostgresInCi(url);
  describe.skipIf(url === undefined)(
    `on PostgreSQL${url === undefined ? ` (skipped: ${POSTGRES_MISSING})` : ''}`,
    () => {
      it('verifies a PostgreSQL store given by URL (or by env) and schema', async () => {
        const schema = `tc_cli_${process.pid}`;
        const store = await openPostgresStore({ connectionString: url as string, schema });
        try {
          await startPaused(world(), store);
          const result = await cli(['--postgres', 'env', '--schema', schema], {
            TOOLCIRCUIT_POSTGRES_URL: url as string,
          });
          expect(result.code).toBe(0);
          expect(result.stdout).toMatch(/journal intact: 3 entries/);
          expect((await cli(['--postgres', url as string, '--schema', 'no_such_schema'])).code).toBe(2);
        } finally {
          await store.close();
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await client.end();
        }
      });
    },
  );
});
