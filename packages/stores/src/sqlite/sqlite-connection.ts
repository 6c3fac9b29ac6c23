import type BetterSqlite3 from 'better-sqlite3';
import { StoreTimeoutError } from '../errors/store-timeout-error.js';
import type { SqlConnection, SqlSession, SqlValue } from '../sql/sql-connection.js';
import { quoteIdentifier } from '../sql/sql-connection.js';
import { isSqliteBusy, needsReopen, sqliteStoreError } from './sqlite-store-error.js';

type Database = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement<SqlValue[]>;

/**
 * One queue per database file for the whole process. better-sqlite3 is synchronous: a connection waiting
 * for SQLite's write lock sleeps on the JavaScript thread, so if another connection of the SAME process
 * held that lock across an `await`, neither could ever move. Queueing every transaction on the file keeps
 * connections of one process from contending at all; other processes are kept apart by SQLite's locks.
 */
const fileQueues = new Map<string, { tail: Promise<unknown>; users: number }>();

/**
 * Waits between tries for a lock another process holds, as SQLite's own busy handler spaces them, then
 * every 100 ms: a wait is a timer, so the event loop (every other run, every tool's time-out) goes on.
 */
const BUSY_DELAYS_MS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];

export interface SqliteConnectionOptions {
  /** The file as errors name it. */
  readonly file: string;
  /** Opens the file (again, after an error that may have left the handle read-only or broken). */
  readonly open: () => Database;
  /** How long, in all, a transaction waits for another process's lock before it fails. */
  readonly busyTimeoutMs: number;
}

/**
 * better-sqlite3 is synchronous, but a store transaction is an async function: the file's queue makes
 * sure no two transactions of this process interleave. BEGIN IMMEDIATE takes the write lock before the
 * first read of a write, so a check-then-write never races another process.
 *
 * SQLite's own busy wait is off (`busy_timeout = 0`: it would block the whole process while it sleeps);
 * a transaction that meets another process's lock is rolled back and tried again after an async wait,
 * until `busyTimeoutMs`. Every transaction's work only reads and writes through its session, so running
 * it again is the same as running it once. After an error that can leave the handle stuck (read-only,
 * I/O, cannot open), the file is opened again before the next transaction: a store whose file becomes
 * writable again works without a restart.
 */
export class SqliteConnection implements SqlConnection {
  readonly dialect = 'sqlite' as const;
  readonly location: string;
  #db: Database | undefined;
  #stale = false;
  readonly #open: () => Database;
  readonly #busyTimeoutMs: number;
  readonly #statements = new Map<string, Statement>();
  readonly #key: string;
  readonly #queue: { tail: Promise<unknown>; users: number };
  #closed = false;

  /** `key` names the database file (its real path); connections with the same key share one queue. */
  constructor(db: Database, key: string, options: SqliteConnectionOptions) {
    this.#db = db;
    this.#key = key;
    this.location = options.file;
    this.#open = options.open;
    this.#busyTimeoutMs = Math.max(0, options.busyTimeoutMs);
    const queue = fileQueues.get(key) ?? { tail: Promise.resolve(), users: 0 };
    queue.users += 1;
    fileQueues.set(key, queue);
    this.#queue = queue;
  }

  table(name: string): string {
    return quoteIdentifier(name);
  }

  transaction<T>(
    mode: 'read' | 'write',
    work: (session: SqlSession, opened: Record<string, unknown>[]) => Promise<T>,
    opening?: string,
  ): Promise<T> {
    const result = this.#queue.tail.then(() => this.#whileBusy(() => this.#attempt(mode, work, opening)));
    this.#queue.tail = result.catch(() => undefined);
    return result;
  }

  /**
   * One statement outside any transaction (a PRAGMA that cannot run inside one), queued and waiting for
   * locks like a transaction. `opening`: the file is being opened, so "not a database" means the wrong file.
   */
  outsideTransaction(sql: string, opening = false): Promise<Record<string, unknown>[]> {
    const result = this.#queue.tail.then(() =>
      this.#whileBusy(async () => this.#prepare(this.#handle(), sql).all() as Record<string, unknown>[], opening),
    );
    this.#queue.tail = result.catch(() => undefined);
    return result;
  }

  /** Fails with `StoreReadOnlyError` when the file can be read but not written (SQLite then opens it read-only). */
  async probeWritable(): Promise<void> {
    const probed = new Error('probed');
    try {
      await this.transaction('write', async (session) => {
        // A change that is rolled back: it needs the write access a real write needs, and leaves nothing.
        await session.run('CREATE TABLE main.toolcircuit_write_probe (x INTEGER)');
        throw probed;
      });
    } catch (error) {
      if (error !== probed) throw error;
    }
  }

  /** SQLite's `quick_check` of the whole file: undefined when it checks out, else its first complaint. */
  async quickCheck(): Promise<string | undefined> {
    const rows = await this.transaction('read', (session) => session.all('PRAGMA quick_check(1)'));
    // SQLite's answer spans lines ("*** in database main ***", then the problem): one line for a message.
    const verdict = String(rows[0]?.quick_check ?? 'no answer').replace(/\s*\n\s*/g, ' ');
    return verdict === 'ok' ? undefined : verdict;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue.tail;
    if (this.#db?.open === true) this.#db.close();
    this.#queue.users -= 1;
    if (this.#queue.users === 0) fileQueues.delete(this.#key);
  }

  /** Runs `attempt` again, after an async wait, while another process holds the lock (until `busyTimeoutMs`). */
  async #whileBusy<T>(attempt: () => Promise<T>, opening = false): Promise<T> {
    const started = performance.now();
    let reopened = false;
    for (let tries = 0; ; tries += 1) {
      try {
        return await attempt();
      } catch (error) {
        const waited = performance.now() - started;
        if (needsReopen(error) && !reopened) {
          // Once, on a new handle: the file may have been replaced or made writable again since this one was
          // opened, and a handle that SQLite opened read-only stays so. A second failure is what is reported.
          this.#stale = true;
          reopened = true;
          continue;
        }
        if (isSqliteBusy(error)) {
          const delay = BUSY_DELAYS_MS[Math.min(tries, BUSY_DELAYS_MS.length - 1)] as number;
          if (waited + delay <= this.#busyTimeoutMs) {
            await new Promise((resolve) => setTimeout(resolve, delay));
            continue;
          }
          throw this.#busyTimeout(error, waited);
        }
        if (needsReopen(error)) this.#stale = true;
        throw sqliteStoreError(error, this.location, opening);
      }
    }
  }

  async #attempt<T>(
    mode: 'read' | 'write',
    work: (session: SqlSession, opened: Record<string, unknown>[]) => Promise<T>,
    opening: string | undefined,
  ): Promise<T> {
    const db = this.#handle();
    db.exec(mode === 'write' ? 'BEGIN IMMEDIATE' : 'BEGIN DEFERRED');
    try {
      const session = this.#session(db);
      const opened = opening === undefined ? [] : await session.all(opening);
      const value = await work(session, opened);
      db.exec('COMMIT');
      return value;
    } catch (error) {
      if (db.inTransaction) {
        try {
          db.exec('ROLLBACK');
        } catch {
          // The handle is in doubt (SQLite rolls an unfinished transaction back when the file is next opened).
          this.#stale = true;
        }
      }
      throw error;
    }
  }

  #busyTimeout(error: unknown, waitedMs: number): StoreTimeoutError {
    return new StoreTimeoutError({
      store: this.location,
      driverCode: (error as { code?: string }).code,
      cause: error,
      waitedMs,
      problem: `another process held the database's write lock for more than ${Math.round(waitedMs)} ms (busyTimeoutMs)`,
      nextStep:
        'Nothing was written. Try again; if it keeps happening, look for a process that keeps a write transaction ' +
        'open on this file, or raise busyTimeoutMs.',
      retryable: true,
    });
  }

  /** The open handle, opened again first if an earlier error may have left it stuck. */
  #handle(): Database {
    if (this.#db === undefined || this.#stale) {
      try {
        if (this.#db?.open === true) this.#db.close();
      } catch {
        // Closing a broken handle may fail; a new one is opened regardless.
      }
      this.#db = undefined;
      this.#statements.clear();
      this.#db = this.#open();
      this.#stale = false;
    }
    return this.#db;
  }

  /**
   * A transaction's statements. Their errors are the store's typed errors already (so the work can tell
   * damage from anything else), except a lock another process holds, which the retry loop waits out.
   */
  #session(db: Database): SqlSession {
    const typed = <T>(statement: () => T): T => {
      try {
        return statement();
      } catch (error) {
        throw isSqliteBusy(error) ? error : sqliteStoreError(error, this.location);
      }
    };
    return {
      all: async (sql, params = []) => typed(() => this.#prepare(db, sql).all(...params) as Record<string, unknown>[]),
      run: async (sql, params = []) =>
        typed(() => {
          const statement = this.#prepare(db, sql);
          // Statements that return rows (e.g. a PRAGMA) cannot be `run`.
          if (statement.reader) {
            statement.all(...params);
            return 0;
          }
          return statement.run(...params).changes;
        }),
    };
  }

  #prepare(db: Database, sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare<SqlValue[]>(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}
