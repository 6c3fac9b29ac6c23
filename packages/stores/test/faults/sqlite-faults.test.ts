// SQLite failing under the durable runner: another process holding the write lock, a file this process may
// not write (at open, and while open), a corrupted page, a full disk (simulated: SQLite's max_page_count
// makes it answer SQLITE_FULL exactly as a full disk does, without needing root to mount a small file
// system). Whatever happens: every error is a typed store error naming the file and what to do, the
// process is never frozen by a lock, and the same store object works again once the file does.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BackedStore,
  NotAStoreError,
  StoreCorruptError,
  StoreReadOnlyError,
  StoreTimeoutError,
  StoreUnavailableError,
} from '../../src/index.js';
import { SqlBackend } from '../../src/sql/sql-backend.js';
import { openSqliteJournal, openSqliteStore } from '../../src/sqlite/index.js';
import { openDatabase } from '../../src/sqlite/open-sqlite-store.js';
import { SqliteConnection } from '../../src/sqlite/sqlite-connection.js';
import { corruptJournalPage } from '../support/corrupt-page.js';
import { audit, faultSession, faultWorld, startFaultRun } from '../support/fault-world.js';
import { entry } from '../support/journal-entry.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'toolcircuit-sqlite-faults-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

function freshFile(): string {
  counter += 1;
  return join(root, `faults-${counter}.sqlite`);
}

/** Another process holding the file's write lock until `release()` (or `maxMs`). */
async function holdLock(file: string, maxMs = 20_000): Promise<{ release: () => Promise<void> }> {
  const ready = `${file}.${counter}.ready`;
  const release = `${file}.${counter}.release`;
  const child: ChildProcess = spawn(
    process.execPath,
    [join(here, 'fixtures', 'hold-sqlite-lock.mjs'), file, ready, release, String(maxMs)],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  for (let tries = 0; !existsSync(ready); tries += 1) {
    if (tries > 1500 || child.exitCode !== null) throw new Error(`the lock holder never locked: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return {
    release: async () => {
      writeFileSync(release, '');
      await exited;
    },
  };
}

const root0 = process.getuid?.() === 0;

/**
 * Takes this process's right to write `paths` away, and gives it back. Root writes any file whatever its
 * mode, so as root the files are made immutable instead (chattr +i), which stops root too.
 */
function blockWrites(paths: readonly string[]): void {
  for (const path of paths.filter((path) => existsSync(path))) {
    if (root0) execFileSync('chattr', ['+i', path]);
    else chmodSync(path, 0o444);
  }
}

function allowWrites(paths: readonly string[]): void {
  for (const path of paths.filter((path) => existsSync(path))) {
    if (root0) execFileSync('chattr', ['-i', path]);
    else chmodSync(path, 0o644);
  }
}

async function completedRuns(file: string, count: number): Promise<void> {
  const store = await openSqliteStore({ file });
  const world = faultWorld();
  const runner = world.runner(store);
  for (let index = 0; index < count; index += 1) await startFaultRun(runner, `filled-${index}`);
  await store.close();
}

/**
 * A store as openSqliteStore builds it, on a handle whose file may not grow past its size once the second
 * note of run "full" has run (its result, kept whole with its call, needs more room), until `room()`.
 */
async function cappedStore(writeRetryMs: number) {
  const file = freshFile();
  await (await openSqliteStore({ file })).close();
  let handle: Database.Database | undefined;
  let full = false;
  const open = () => {
    handle = openDatabase(Database, file, false);
    return handle;
  };
  const connection = new SqliteConnection(open(), realpathSync(file), { file, open, busyTimeoutMs: 1000 });
  const store = new BackedStore(new SqlBackend(connection, 2), {}, { location: file, writeRetryMs });
  const world = faultWorld({
    onRun: async (key) => {
      if (key !== 'full/b') return;
      handle?.pragma(`max_page_count = ${Number(handle.pragma('page_count', { simple: true }))}`);
      full = true;
    },
    output: (key) => (key === 'full/b' ? 'x'.repeat(64 * 1024) : `noted ${key}`),
  });
  return {
    file,
    store,
    world,
    isFull: () => full,
    room: () => {
      handle?.pragma('max_page_count = 1000000');
    },
  };
}

describe('SQLite faults', () => {
  it('another process holds the write lock: the wait does not freeze this process, and the write goes through', async () => {
    const file = freshFile();
    const store = await openSqliteStore({ file });
    try {
      const lock = await holdLock(file);
      const events: string[] = [];
      const write = Promise.resolve(store.journal.append(entry('busy', 'c1'))).then(() => events.push('written'));
      // A timer of this process, due while the write waits for the lock: it runs, then lets the lock go.
      await new Promise((resolve) => setTimeout(resolve, 50));
      events.push('timer ran');
      await lock.release();
      await write;
      expect(events).toEqual(['timer ran', 'written']);
      expect((await store.readJournal({ runId: 'busy' })).length).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('a lock held past busyTimeoutMs: a typed, retryable time-out naming the file; a claimed write waits it out', async () => {
    const file = freshFile();
    const impatient = await openSqliteStore({ file, busyTimeoutMs: 200, writeRetryMs: 0 });
    const patient = await openSqliteStore({ file, busyTimeoutMs: 200 });
    try {
      const lock = await holdLock(file);
      const refused = impatient.journal.append(entry('locked', 'c1'));
      await expect(refused).rejects.toBeInstanceOf(StoreTimeoutError);
      await expect(refused).rejects.toMatchObject({ retryable: true, runId: 'locked', store: realpathSync(file) });
      await expect(refused).rejects.toThrow(/held the database's write lock for more than \d+ ms/);
      const waiting = patient.journal.append(entry('locked', 'c2'));
      await new Promise((resolve) => setTimeout(resolve, 600));
      await lock.release();
      await waiting;
      expect((await patient.readJournal({ runId: 'locked' })).map((row) => row.record)).toMatchObject([
        { callId: 'c2' },
      ]);
    } finally {
      await impatient.close();
      await patient.close();
    }
  });

  it("a lock held across a result's commit, past busyTimeoutMs: the write is tried again, the result stays known", async () => {
    const file = freshFile();
    const store = await openSqliteStore({ file, busyTimeoutMs: 200 });
    let lock: { release: () => Promise<void> } | undefined;
    // While the first note runs, another process takes the write lock and keeps it well past busyTimeoutMs.
    const world = faultWorld({
      onRun: async (key) => {
        if (key === 'blip/a') lock = await holdLock(file);
      },
    });
    try {
      const run = startFaultRun(world.runner(store, { concurrency: 1 }), 'blip');
      for (let tries = 0; lock === undefined; tries += 1) {
        if (tries > 1000) throw new Error('the lock was never taken');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, 800));
      await lock.release();
      const result = await run;
      expect(result.status).toBe('completed');
      expect(result.unknownOutcomes).toEqual([]);
      expect(await audit(store, world, ['blip'])).toEqual({
        statuses: { completed: 1 },
        unknown: 0,
        doubles: 0,
        verified: true,
      });
    } finally {
      await store.close();
    }
  });

  it('a file this process may not write is refused at open, naming it; made writable, it opens and runs', async () => {
    const file = freshFile();
    await completedRuns(file, 1);
    const parts = [file, `${file}-wal`, `${file}-shm`];
    blockWrites(parts);
    try {
      const opening = openSqliteStore({ file });
      await expect(opening).rejects.toBeInstanceOf(StoreReadOnlyError);
      await expect(opening).rejects.toMatchObject({ retryable: true, store: file });
      await expect(opening).rejects.toThrow(new RegExp(`not writable by this process: ${file}.*write access`));
    } finally {
      allowWrites(parts);
    }
    const store = await openSqliteStore({ file });
    const world = faultWorld();
    expect((await startFaultRun(world.runner(store), 'writable-again')).status).toBe('completed');
    await store.close();
  });

  it.runIf(root0)(
    'a file that becomes unwritable while the store is open: typed errors, then the same store writes again',
    async () => {
      const file = freshFile();
      const store = await openSqliteStore({ file });
      const world = faultWorld();
      const runner = world.runner(store);
      try {
        expect((await startFaultRun(runner, 'before')).status).toBe('completed');
        const parts = [file, `${file}-wal`];
        blockWrites(parts);
        try {
          const refused = startFaultRun(runner, 'during');
          await expect(refused).rejects.toBeInstanceOf(StoreReadOnlyError);
          await expect(refused).rejects.toMatchObject({ runId: 'during', store: file });
          await expect(refused).rejects.toThrow(/the store opens the file again on its next operation/);
        } finally {
          allowWrites(parts);
        }
        expect((await startFaultRun(runner, 'after')).status).toBe('completed');
        expect(await audit(store, world, ['before', 'after'])).toEqual({
          statuses: { completed: 2 },
          unknown: 0,
          doubles: 0,
          verified: true,
        });
      } finally {
        await store.close();
      }
    },
  );

  it('a corrupted page: refused at open, a verify finding, and a store that meets it starts no run', async () => {
    const file = freshFile();
    await completedRuns(file, 40);
    corruptJournalPage(file);

    const opening = openSqliteStore({ file });
    await expect(opening).rejects.toBeInstanceOf(StoreCorruptError);
    await expect(opening).rejects.toMatchObject({ retryable: false, store: file });
    await expect(opening).rejects.toThrow(/damaged .*restore it from a backup/);

    const journal = await openSqliteJournal({ file });
    const verification = await journal.verifyJournal();
    await journal.close();
    expect(verification).toMatchObject({ ok: false, problem: 'corrupt' });
    expect(verification.ok === false && verification.seq).toBeGreaterThan(1);

    // Opened without the check (e.g. to read its runs), it works until it meets the damage, then starts nothing.
    const store = await openSqliteStore({ file, integrityCheck: false });
    try {
      expect((await store.getRun('filled-0'))?.status).toBe('completed');
      await expect(store.readJournal()).rejects.toBeInstanceOf(StoreCorruptError);
      const refused = startFaultRun(faultWorld().runner(store), 'on-damage');
      await expect(refused).rejects.toBeInstanceOf(StoreCorruptError);
      await expect(refused).rejects.toMatchObject({ runId: 'on-damage' });
      expect(await store.getRun('on-damage')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('a file that is not a database is refused at open, naming it', async () => {
    const file = freshFile();
    writeFileSync(file, Buffer.alloc(8192, 0x42));
    for (const opening of [openSqliteStore({ file }), openSqliteJournal({ file })]) {
      await expect(opening).rejects.toBeInstanceOf(NotAStoreError);
      await expect(opening).rejects.toMatchObject({ retryable: false, store: file });
      await expect(opening).rejects.toThrow(/not a SQLite database .*Check the path/);
    }
    expect(readFileSync(file)).toEqual(Buffer.alloc(8192, 0x42));
  });

  it('a full disk: typed, naming the file; once there is room the same store writes, and its runner recovers the run', async () => {
    const disk = await cappedStore(0);
    // One call at a time: the first note's result is stored, then the second's meets the full disk.
    const runner = disk.world.runner(disk.store, { concurrency: 1 });
    try {
      const failing = startFaultRun(runner, 'full');
      await expect(failing).rejects.toMatchObject({ code: 'journal_write_failed', runId: 'full', retryable: true });
      const failure = (await failing.then(
        () => undefined,
        (error: Error) => error,
      )) as Error;
      expect(failure.cause).toBeInstanceOf(StoreUnavailableError);
      expect(failure.cause).toMatchObject({ driverCode: 'SQLITE_FULL', store: disk.file, runId: 'full' });
      expect(failure.message).toMatch(/disk that holds the database is full .*Free space .*recover\("full"/);
      // Marking the run interrupted needed no new page: another worker may recover it now.
      expect((await disk.store.getRun('full'))?.status).toBe('interrupted');
      // Room again (the disk freed): the same store object writes, and the run is recovered without a restart.
      disk.room();
      const recovered = await runner.recover('full', { session: faultSession });
      expect(recovered.status).toBe('completed');
      // The note whose result could not be stored had run: it is reported, never run again.
      expect(recovered.unknownOutcomes).toEqual(['b']);
      expect(disk.world.executions.get('full/b')).toBe(1);
      expect((await startFaultRun(runner, 'room')).status).toBe('completed');
      expect((await disk.store.verifyJournal()).ok).toBe(true);
    } finally {
      await disk.store.close();
    }
  });

  it('a full disk freed within writeRetryMs: the result is written once there is room, and stays known', async () => {
    const disk = await cappedStore(30_000);
    const runner = disk.world.runner(disk.store, { concurrency: 1 });
    try {
      const run = startFaultRun(runner, 'full');
      for (let tries = 0; !disk.isFull(); tries += 1) {
        if (tries > 1000) throw new Error('the disk never filled');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      disk.room();
      const result = await run;
      expect(result.status).toBe('completed');
      expect(result.unknownOutcomes).toEqual([]);
      expect(await audit(disk.store, disk.world, ['full'])).toEqual({
        statuses: { completed: 1 },
        unknown: 0,
        doubles: 0,
        verified: true,
      });
    } finally {
      await disk.store.close();
    }
  });
});
