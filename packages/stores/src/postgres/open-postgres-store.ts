import pg from 'pg';
import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';
import type { JournalPolicy } from '../journal/journal-policy.js';
import { SqlBackend } from '../sql/sql-backend.js';
import { quoteIdentifier } from '../sql/sql-connection.js';
import { migrate } from '../sql/sql-migrations.js';
import { BackedStore } from '../store/backed-store.js';
import type { DurableStore } from '../store/durable-store.js';
import { PostgresConnection } from './postgres-connection.js';
import { postgresMigrations } from './postgres-migrations.js';

export const DEFAULT_POSTGRES_SCHEMA = 'toolcircuit';

export interface PostgresStoreOptions {
  /** e.g. `postgres://app@db:5432/app`. Give this or `pool`. */
  readonly connectionString?: string;
  /** A pool of your own; the store does not end it on `close`. */
  readonly pool?: pg.Pool;
  /** The schema that holds the store's tables (created if needed). Default "toolcircuit". */
  readonly schema?: string;
  /** Size of the pool the store creates from `connectionString`. Default 10. */
  readonly maxConnections?: number;
  readonly journal?: JournalPolicy;
}

export interface PostgresStore extends DurableStore {
  readonly schema: string;
}

class PostgresDurableStore extends BackedStore implements PostgresStore {
  readonly schema: string;

  constructor(schema: string, backend: SqlBackend, policy: JournalPolicy | undefined) {
    super(backend, policy);
    this.schema = schema;
  }
}

/**
 * A pool of the store's own. An idle connection the server drops emits 'error' on the pool, which would
 * crash the process without a listener; the next transaction reports the problem instead.
 */
export function ownPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  pool.on('error', () => {});
  return pool;
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
 * starting together wait for each other on an advisory lock; the migration is one transaction).
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const schema = checkedSchemaName(options.schema);
  if ((options.pool === undefined) === (options.connectionString === undefined)) {
    throw new InvalidStoreOptionsError('connectionString', 'give exactly one of `connectionString` and `pool`.');
  }
  const ownsPool = options.pool === undefined;
  const pool = options.pool ?? ownPool(options.connectionString as string, options.maxConnections ?? 10);
  const connection = new PostgresConnection(pool, schema, ownsPool);
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
  return new PostgresDurableStore(schema, new SqlBackend(connection, version), options.journal);
}
