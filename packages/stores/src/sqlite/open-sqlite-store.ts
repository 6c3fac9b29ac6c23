import { mkdirSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';
import { StoreUnavailableError } from '../errors/store-unavailable-error.js';
import type { JournalPolicy } from '../journal/journal-policy.js';
import { SqlBackend } from '../sql/sql-backend.js';
import { migrate } from '../sql/sql-migrations.js';
import { BackedStore, type BackedStoreOptions } from '../store/backed-store.js';
import type { DurableStore } from '../store/durable-store.js';
import { loadBetterSqlite3 } from '../store/load-driver.js';
import { SqliteConnection } from './sqlite-connection.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import { corruptSqliteError, sqliteStoreError } from './sqlite-store-error.js';

/** The file name used inside an application's data directory. */
export const SQLITE_STORE_FILE = 'toolcircuit.sqlite';

export interface SqliteStoreOptions {
  /** The database file. Give this or `dataDir`. */
  readonly file?: string;
  /** The application's data directory: the store is `<dataDir>/toolcircuit.sqlite` (created if needed). */
  readonly dataDir?: string;
  readonly journal?: JournalPolicy;
  /**
   * How long a transaction waits, in all, for another process's write lock before it fails with
   * `StoreTimeoutError`. The wait is asynchronous (tries spaced by timers), so the process goes on
   * meanwhile. Default 5000 ms.
   */
  readonly busyTimeoutMs?: number;
  /**
   * How long the writes of a claimed run (start markers, results, its end) are tried again while the
   * database is unavailable for a reason that passes by itself (a lock held too long), with the claim held.
   * Default 30 000 ms; 0 tries once.
   */
  readonly writeRetryMs?: number;
  /**
   * Check the whole file with SQLite's `quick_check` when opening (about 0.1 s per 100 MB when cached), and
   * refuse a damaged store with `StoreCorruptError`. Default true.
   */
  readonly integrityCheck?: boolean;
}

export interface SqliteStore extends DurableStore {
  /** The database file in use. */
  readonly file: string;
}

class SqliteDurableStore extends BackedStore implements SqliteStore {
  readonly file: string;

  constructor(file: string, backend: SqlBackend, policy: JournalPolicy | undefined, options: BackedStoreOptions) {
    super(backend, policy, options);
    this.file = file;
  }
}

/**
 * Opens (creating if needed) the embedded store and migrates its schema. Several processes may open the
 * same file: SQLite serialises their writes, and WAL lets reads go on meanwhile. `synchronous = FULL`
 * because a start marker must be on disk before its tool runs, even if the machine loses power.
 *
 * Refused with a typed error naming the file: a file that is not a SQLite database (`NotAStoreError`), a
 * damaged one (`StoreCorruptError`), one this process can read but not write (`StoreReadOnlyError`: SQLite
 * would otherwise open it read-only and fail every write), one that cannot be opened at all
 * (`StoreUnavailableError`), another process's lock held past `busyTimeoutMs` (`StoreTimeoutError`).
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  const file = storeFile(options);
  const path = resolve(file);
  const Database = await loadBetterSqlite3();
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw new StoreUnavailableError({
      store: path,
      driverCode: (error as NodeJS.ErrnoException).code,
      cause: error,
      problem: `the folder of the database cannot be created (${(error as Error).message})`,
      nextStep: 'Create it, or give a `file` or `dataDir` this process may write to.',
      retryable: false,
    });
  }
  const open = () => openDatabase(Database, path, false);
  let connection: SqliteConnection;
  try {
    connection = new SqliteConnection(open(), realpathSync(path), {
      file: path,
      open,
      busyTimeoutMs: Math.floor(options.busyTimeoutMs ?? 5000),
    });
  } catch (error) {
    throw sqliteStoreError(error, path, true);
  }
  try {
    await connection.outsideTransaction('PRAGMA journal_mode = WAL', true);
    if (options.integrityCheck !== false) {
      const damage = await connection.quickCheck();
      if (damage !== undefined) throw corruptSqliteError(path, `quick_check: ${damage}`);
    }
    await connection.probeWritable();
    const version = await migrate(connection, { migrations: sqliteMigrations });
    return new SqliteDurableStore(file, new SqlBackend(connection, version), options.journal, {
      location: path,
      ...(options.writeRetryMs === undefined ? {} : { writeRetryMs: options.writeRetryMs }),
    });
  } catch (error) {
    await connection.close();
    throw error;
  }
}

/**
 * A handle on the file with the store's settings. SQLite's own busy wait is off: it would sleep on the
 * JavaScript thread (see `SqliteConnection`). The journal mode (WAL) is kept in the file itself.
 */
export function openDatabase(Database: typeof BetterSqlite3, file: string, readonly: boolean): BetterSqlite3.Database {
  const db = new Database(file, readonly ? { readonly: true, fileMustExist: true } : {});
  try {
    db.pragma('busy_timeout = 0');
    if (!readonly) {
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
    }
    return db;
  } catch (error) {
    db.close();
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
