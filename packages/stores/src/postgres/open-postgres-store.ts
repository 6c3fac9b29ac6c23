import type pg from 'pg';
import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';
import { checkedJournalKey } from '../journal/journal-key.js';
import type { JournalPolicy } from '../journal/journal-policy.js';
import { SqlBackend } from '../sql/sql-backend.js';
import { quoteIdentifier } from '../sql/sql-connection.js';
import { migrate } from '../sql/sql-migrations.js';
import { BackedStore } from '../store/backed-store.js';
import type { DurableStore } from '../store/durable-store.js';
import { loadPg } from '../store/load-driver.js';
import { DEFAULT_WRITE_RETRY_MS } from '../store/store-retry.js';
import { PostgresConnection } from './postgres-connection.js';
import { postgresMigrations } from './postgres-migrations.js';
import {
  type PostgresTimeouts,
  postgresLocation,
  postgresSettings,
  type ResolvedTimeouts,
} from './postgres-settings.js';

export const DEFAULT_POSTGRES_SCHEMA = 'toolcircuit';

export interface PostgresStoreOptions {
  /**
   * e.g. `postgres://app@db:5432/app`. Give this or `pool`. The URL parameters `connect_timeout`,
   * `statement_timeout`, `query_timeout`, `idle_in_transaction_session_timeout`, `keepalives` and
   * `keepalives_idle` set the matching time-out (an option in `timeouts` wins over them).
   */
  readonly connectionString?: string;
  /**
   * A pool of your own; the store does not end it on `close`. The store applies `timeouts.connectMs` and
   * `timeouts.queryMs` itself; the server-side ones and keep-alive are your pool's settings. Give your pool
   * an 'error' listener: node-postgres emits errors of idle connections on it.
   */
  readonly pool?: pg.Pool;
  /** The schema that holds the store's tables (created if needed). Default "toolcircuit". */
  readonly schema?: string;
  /** Size of the pool the store creates from `connectionString`. Default 10. */
  readonly maxConnections?: number;
  readonly journal?: JournalPolicy;
  /** Connect, statement, answer and idle time-outs, and TCP keep-alive; see each for its default. */
  readonly timeouts?: PostgresTimeouts;
  /**
   * How long the writes of a claimed run (start markers, results, its end) are tried again while the
   * database is unavailable (a lost connection, a restart, a time-out), with the claim held; also how long
   * the store keeps asking whether a commit whose answer was lost went through. Default 30 000 ms.
   */
  readonly writeRetryMs?: number;
}

export interface PostgresStore extends DurableStore {
  readonly schema: string;
}

class PostgresDurableStore extends BackedStore implements PostgresStore {
  readonly schema: string;

  constructor(
    schema: string,
    backend: SqlBackend,
    policy: JournalPolicy | undefined,
    options: { location: string; writeRetryMs?: number },
  ) {
    super(backend, policy, options);
    this.schema = schema;
  }
}

/**
 * A pool of the store's own, with its time-outs and keep-alive. An idle connection the server drops emits
 * 'error' on the pool, which would crash the process without a listener; the next transaction reports the
 * problem instead.
 */
export async function ownPool(connectionString: string, max: number, timeouts: ResolvedTimeouts): Promise<pg.Pool> {
  const { Pool } = await loadPg();
  const pool = new Pool({
    connectionString,
    max,
    ...(timeouts.connectMs > 0 ? { connectionTimeoutMillis: timeouts.connectMs } : {}),
    idleTimeoutMillis: timeouts.idleMs,
    keepAlive: timeouts.keepAliveMs > 0,
    ...(timeouts.keepAliveMs > 0 ? { keepAliveInitialDelayMillis: timeouts.keepAliveMs } : {}),
    // Sent at connection start: the server ends a statement, or an idle transaction (and its locks), itself.
    ...(timeouts.statementMs > 0 ? { statement_timeout: timeouts.statementMs } : {}),
    ...(timeouts.idleInTransactionMs > 0 ? { idle_in_transaction_session_timeout: timeouts.idleInTransactionMs } : {}),
  });
  pool.on('error', () => {});
  return pool;
}

/** The connection of a store, on its own pool or the application's. */
export async function postgresConnection(
  options: Pick<PostgresStoreOptions, 'connectionString' | 'pool' | 'timeouts' | 'writeRetryMs'>,
  schema: string,
  maxConnections: number,
): Promise<PostgresConnection> {
  const settings = postgresSettings(options.connectionString, options.timeouts);
  const { timeouts } = settings;
  const pool = options.pool ?? (await ownPool(settings.connectionString as string, maxConnections, timeouts));
  const location = postgresLocation(schema, options.pool === undefined ? options : options.pool.options);
  return new PostgresConnection(pool, schema, options.pool === undefined, location, {
    connectMs: timeouts.connectMs,
    queryMs: timeouts.queryMs,
    commitCheckMs: options.writeRetryMs ?? DEFAULT_WRITE_RETRY_MS,
  });
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** The schema name, checked: it is quoted into SQL, so only a plain identifier (at most 63 bytes) is taken. */
export function checkedSchemaName(schema: string | undefined): string {
  const name = schema ?? DEFAULT_POSTGRES_SCHEMA;
  if (!IDENTIFIER.test(name)) {
    throw new InvalidStoreOptionsError('schema', `"${name}" is not a plain identifier; use letters, digits and _.`);
  }
  return name;
}

/**
 * Opens the store for several workers sharing one PostgreSQL database and migrates its schema (workers
 * starting together wait for each other on an advisory lock; the migration is one transaction). A server
 * that cannot be reached, refuses, or does not answer in time is a typed store error naming the schema and
 * database and what to do.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const schema = checkedSchemaName(options.schema);
  // Checked before a pool exists, so a bad key leaves nothing open.
  if (options.journal?.key !== undefined) checkedJournalKey(options.journal.key);
  if ((options.pool === undefined) === (options.connectionString === undefined)) {
    throw new InvalidStoreOptionsError('connectionString', 'give exactly one of `connectionString` and `pool`.');
  }
  const connection = await postgresConnection(options, schema, options.maxConnections ?? 10);
  let version: number;
  try {
    version = await migrate(connection, {
      preamble: [
        { sql: 'SELECT pg_advisory_xact_lock(hashtext(?))', params: [`toolcircuit-stores:${schema}`] },
        { sql: `CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}` },
      ],
      migrations: postgresMigrations(schema),
    });
  } catch (error) {
    await connection.close();
    throw error;
  }
  return new PostgresDurableStore(schema, new SqlBackend(connection, version), options.journal, {
    location: connection.location,
    ...(options.writeRetryMs === undefined ? {} : { writeRetryMs: options.writeRetryMs }),
  });
}
