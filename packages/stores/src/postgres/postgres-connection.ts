import type pg from 'pg';
import { isStoreError } from '../errors/store-error.js';
import { StoreTimeoutError } from '../errors/store-timeout-error.js';
import { StoreUnavailableError } from '../errors/store-unavailable-error.js';
import type { SqlConnection, SqlSession, SqlValue } from '../sql/sql-connection.js';
import { quoteIdentifier } from '../sql/sql-connection.js';
import { connectionUsable, postgresStoreError } from './postgres-store-error.js';

/** The time-outs the connection applies itself, whoever made the pool. */
export interface PostgresClientLimits {
  /** Waiting for a connection from the pool (connecting included). 0: no limit. */
  readonly connectMs: number;
  /** Waiting for the answer to one statement before the connection is dropped. 0: no limit. */
  readonly queryMs: number;
  /** How long to keep asking whether a commit whose answer was lost went through. */
  readonly commitCheckMs: number;
}

/** What one transaction learnt about its connection. */
interface TransactionState {
  /** The connection broke (or went silent): it is dropped, never sent ROLLBACK or put back in the pool. */
  broken?: Error;
}

/**
 * One pool, one schema. Each transaction takes its own pooled connection, so workers run in parallel.
 *
 * node-postgres emits 'error' on a client whose connection dies; the pool listens only while the client is
 * idle, so a client a transaction holds gets a listener of its own for that time (without one, the event
 * would end the process). Every driver error leaves as the store's typed error. A write transaction knows
 * its transaction id: when the answer to its COMMIT is lost with the connection, the store asks the
 * server (`txid_status`) whether it committed, so a write is reported done, or not done, only when it is.
 */
export class PostgresConnection implements SqlConnection {
  readonly dialect = 'postgres' as const;
  readonly location: string;
  readonly #pool: pg.Pool;
  readonly #schema: string;
  readonly #ownsPool: boolean;
  readonly #limits: PostgresClientLimits;

  constructor(pool: pg.Pool, schema: string, ownsPool: boolean, location: string, limits: PostgresClientLimits) {
    this.#pool = pool;
    this.#schema = schema;
    this.#ownsPool = ownsPool;
    this.location = location;
    this.#limits = limits;
  }

  table(name: string): string {
    return `${quoteIdentifier(this.#schema)}.${quoteIdentifier(name)}`;
  }

  async transaction<T>(
    mode: 'read' | 'write',
    work: (session: SqlSession, opened: Record<string, unknown>[]) => Promise<T>,
    opening?: string,
  ): Promise<T> {
    const client = await this.#connect();
    const state: TransactionState = {};
    const onError = (error: Error) => {
      state.broken ??= error;
    };
    client.on('error', onError);
    let xid: string | undefined;
    let committing = false;
    let value: T | undefined;
    try {
      // Reads see one snapshot; writes use READ COMMITTED behind the head-row lock the backend takes
      // first, so each of their statements sees every write committed before the lock was granted.
      const begin = mode === 'read' ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN';
      // One round trip for all (the simple protocol takes several statements; their results come back as a
      // list). A write learns its transaction id with it.
      const statements = [begin, ...(mode === 'write' ? ['SELECT txid_current()::text AS xid'] : [])];
      if (opening !== undefined) statements.push(opening);
      const results = await this.#query(client, state, statements.join('; '));
      const list = (Array.isArray(results) ? results : [results]) as pg.QueryResult[];
      if (mode === 'write') xid = String(list[1]?.rows[0]?.xid);
      const opened = (opening === undefined ? [] : (list.at(-1)?.rows ?? [])) as Record<string, unknown>[];
      value = await work(this.#session(client, state), opened);
      committing = true;
      await this.#query(client, state, 'COMMIT');
      return value;
    } catch (error) {
      const typed = postgresStoreError(error, this.location);
      if (state.broken === undefined) {
        // A statement (or the work's own checks) failed on a sound connection: roll back and keep it.
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          state.broken = asError(rollbackError);
        });
        throw typed;
      }
      if (committing && xid !== undefined) return this.#committed(xid, value as T, typed);
      throw typed;
    } finally {
      client.removeListener('error', onError);
      client.release(state.broken);
    }
  }

  async single(sql: string, params: readonly SqlValue[]): Promise<Record<string, unknown>[]> {
    const client = await this.#connect();
    const state: TransactionState = {};
    const onError = (error: Error) => {
      state.broken ??= error;
    };
    client.on('error', onError);
    try {
      return ((await this.#query(client, state, numbered(sql), params)) as pg.QueryResult).rows as Record<
        string,
        unknown
      >[];
    } catch (error) {
      throw postgresStoreError(error, this.location);
    } finally {
      client.removeListener('error', onError);
      client.release(state.broken);
    }
  }

  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end();
  }

  /** A client from the pool within `connectMs`; one that arrives later goes straight back. */
  async #connect(): Promise<pg.PoolClient> {
    const connecting = this.#pool.connect();
    try {
      return await withinTime(connecting, this.#limits.connectMs, () => {
        connecting.then(
          (late) => late.release(),
          () => undefined,
        );
        return this.#timeout(
          `no database connection within ${this.#limits.connectMs} ms`,
          'raise timeouts.connectMs (or connect_timeout in the URL) if the server is slow to accept connections',
        );
      });
    } catch (error) {
      throw postgresStoreError(error, this.location);
    }
  }

  /**
   * One round trip within `queryMs`. An error that is not a failed statement (the connection broke or went
   * silent) marks the connection broken: it is then dropped, and a late answer is ignored.
   */
  async #query(
    client: pg.PoolClient,
    state: TransactionState,
    sql: string,
    params?: readonly SqlValue[],
  ): Promise<pg.QueryResult | pg.QueryResult[]> {
    if (state.broken !== undefined) throw state.broken;
    const sent = (params === undefined ? client.query(sql) : client.query(sql, [...params])) as Promise<
      pg.QueryResult | pg.QueryResult[]
    >;
    try {
      return await withinTime(sent, this.#limits.queryMs, () => {
        sent.catch(() => undefined);
        return this.#timeout(
          `the database did not answer within ${this.#limits.queryMs} ms (a silent network, or a stalled server)`,
          'raise timeouts.queryMs if statements legitimately take longer',
        );
      });
    } catch (error) {
      if (!connectionUsable(error)) state.broken ??= asError(error);
      // Typed here already, so a transaction's work can tell damage or a lost connection from anything else.
      throw postgresStoreError(error, this.location);
    }
  }

  #session(client: pg.PoolClient, state: TransactionState): SqlSession {
    return {
      all: async (sql, params = []) =>
        ((await this.#query(client, state, numbered(sql), params)) as pg.QueryResult).rows as Record<string, unknown>[],
      run: async (sql, params = []) =>
        ((await this.#query(client, state, numbered(sql), params)) as pg.QueryResult).rowCount ?? 0,
    };
  }

  /**
   * The connection died while its COMMIT was under way: the answer is asked of the server on another
   * connection, until `commitCheckMs`. Committed: the write's value, as if the answer had arrived.
   * Aborted: the write's own error (nothing was written; retryable). Unknown: a non-retryable error that
   * says so, since doing the write again could do it twice.
   */
  async #committed<T>(xid: string, value: T, lost: unknown): Promise<T> {
    const started = performance.now();
    let delay = 100;
    for (;;) {
      const status = await this.#xidStatus(xid);
      if (status === 'committed') return value;
      if (status === 'aborted') throw lost;
      if (performance.now() - started + delay > this.#limits.commitCheckMs) break;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 2000);
    }
    throw new StoreUnavailableError({
      store: this.location,
      driverCode: isStoreError(lost) ? lost.driverCode : undefined,
      cause: lost,
      problem:
        `the connection was lost while the database committed a write, and whether it was committed could not be ` +
        `learnt within ${this.#limits.commitCheckMs} ms`,
      nextStep:
        'Read the run (runner.get) once the database answers to see whether the write is there before doing it again.',
      retryable: false,
    });
  }

  /** `committed`, `aborted`, `in progress`, or undefined when the server cannot be asked (or forgot the id). */
  async #xidStatus(xid: string): Promise<string | undefined> {
    try {
      const rows = await this.single('SELECT txid_status(?::bigint) AS status', [xid]);
      const status = rows[0]?.status;
      return typeof status === 'string' ? status : undefined;
    } catch {
      return undefined;
    }
  }

  #timeout(problem: string, fix: string): StoreTimeoutError {
    return new StoreTimeoutError({
      store: this.location,
      problem,
      nextStep: `Nothing was written. Try again; ${fix}.`,
      retryable: true,
    });
  }
}

/** `operation`, or `late()`'s error once `ms` have passed (0: no limit). */
function withinTime<T>(operation: Promise<T>, ms: number, late: () => Error): Promise<T> {
  if (ms <= 0) return operation;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  return Promise.race([operation, expired]).finally(() => clearTimeout(timer));
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** `?` → `$1`, `$2`…: the stores write portable statements and never put a `?` inside a literal. */
function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => {
    index += 1;
    return `$${index}`;
  });
}
