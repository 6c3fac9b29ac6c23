import { mkdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';
import type { JournalPolicy } from '../journal/journal-policy.js';
import { SqlBackend } from '../sql/sql-backend.js';
import { migrate } from '../sql/sql-migrations.js';
import { BackedStore } from '../store/backed-store.js';
import type { DurableStore } from '../store/durable-store.js';
import { SqliteConnection } from './sqlite-connection.js';
import { sqliteMigrations } from './sqlite-migrations.js';

/** The file name used inside an application's data directory. */
export const SQLITE_STORE_FILE = 'toolcircuit.sqlite';

export interface SqliteStoreOptions {
  /** The database file. Give this or `dataDir`. */
  readonly file?: string;
  /** The application's data directory: the store is `<dataDir>/toolcircuit.sqlite` (created if needed). */
  readonly dataDir?: string;
  readonly journal?: JournalPolicy;
  /** How long to wait for another process's write lock before failing. Default 5000 ms. */
  readonly busyTimeoutMs?: number;
}

export interface SqliteStore extends DurableStore {
  /** The database file in use. */
  readonly file: string;
}

class SqliteDurableStore extends BackedStore implements SqliteStore {
  readonly file: string;

  constructor(file: string, backend: SqlBackend, policy: JournalPolicy | undefined) {
    super(backend, policy);
    this.file = file;
  }
}

/**
 * Opens (creating if needed) the embedded store and migrates its schema. Several processes may open the
 * same file: SQLite serialises their writes, and WAL lets reads go on meanwhile. `synchronous = FULL`
 * because a start marker must be on disk before its tool runs, even if the machine loses power.
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  const file = storeFile(options);
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  let connection: SqliteConnection | undefined;
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    connection = new SqliteConnection(db, realpathSync(file));
    const version = await migrate(connection, { migrations: sqliteMigrations });
    return new SqliteDurableStore(file, new SqlBackend(connection, version), options.journal);
  } catch (error) {
    if (connection === undefined) db.close();
    else await connection.close();
    throw error;
  }
}

function storeFile(options: SqliteStoreOptions): string {
  if (options.file !== undefined && options.dataDir !== undefined) {
    throw new InvalidStoreOptionsError('file', 'give either `file` or `dataDir`, not both.');
  }
  if (options.file !== undefined && options.file !== '') return options.file;
  if (options.dataDir !== undefined && options.dataDir !== '') return join(options.dataDir, SQLITE_STORE_FILE);
  throw new InvalidStoreOptionsError(
    'file',
    "say where the database lives: `file: '/path/to/toolcircuit.sqlite'` or `dataDir: <your app's data directory>`.",
  );
}
