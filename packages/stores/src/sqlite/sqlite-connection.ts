import type BetterSqlite3 from 'better-sqlite3';
import type { SqlConnection, SqlSession, SqlValue } from '../sql/sql-connection.js';
import { quoteIdentifier } from '../sql/sql-connection.js';

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
 * better-sqlite3 is synchronous, but a store transaction is an async function: the file's queue makes
 * sure no two transactions of this process interleave. BEGIN IMMEDIATE takes the write lock before the
 * first read of a write, so a check-then-write never races another process.
 */
export class SqliteConnection implements SqlConnection {
  readonly dialect = 'sqlite' as const;
  readonly #db: Database;
  readonly #statements = new Map<string, Statement>();
  readonly #key: string;
  readonly #queue: { tail: Promise<unknown>; users: number };
  #closed = false;

  /** `key` names the database file (its real path); connections with the same key share one queue. */
  constructor(db: Database, key: string) {
    this.#db = db;
    this.#key = key;
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
    const result = this.#queue.tail.then(async () => {
      const db = this.#db;
      db.exec(mode === 'write' ? 'BEGIN IMMEDIATE' : 'BEGIN DEFERRED');
      try {
        const session = this.#session();
        const opened = opening === undefined ? [] : await session.all(opening);
        const value = await work(session, opened);
        db.exec('COMMIT');
        return value;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      }
    });
    this.#queue.tail = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue.tail;
    if (this.#db.open) this.#db.close();
    this.#queue.users -= 1;
    if (this.#queue.users === 0) fileQueues.delete(this.#key);
  }

  #session(): SqlSession {
    return {
      all: async (sql, params = []) => this.#prepare(sql).all(...params) as Record<string, unknown>[],
      run: async (sql, params = []) => {
        const statement = this.#prepare(sql);
        // Statements that return rows (e.g. a PRAGMA) cannot be `run`.
        if (statement.reader) {
          statement.all(...params);
          return 0;
        }
        return statement.run(...params).changes;
      },
    };
  }

  #prepare(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare<SqlValue[]>(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}
