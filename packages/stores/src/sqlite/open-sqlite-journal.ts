import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';
import { NotAStoreError } from '../errors/not-a-store-error.js';
import { UnsupportedSchemaVersionError } from '../errors/unsupported-schema-version-error.js';
import type { JournalKey } from '../journal/journal-key.js';
import { SqlBackend } from '../sql/sql-backend.js';
import { appliedVersion } from '../sql/sql-migrations.js';
import { BackedStore } from '../store/backed-store.js';
import { loadBetterSqlite3 } from '../store/load-driver.js';
import { JOURNAL_TABLES, missingTableJournal } from '../store/missing-table-journal.js';
import { type ReadonlyJournal, readonlyJournalOf } from '../store/readonly-journal.js';
import { openDatabase } from './open-sqlite-store.js';
import { SqliteConnection } from './sqlite-connection.js';
import { sqliteMigrations } from './sqlite-migrations.js';
import { sqliteStoreError } from './sqlite-store-error.js';

/**
 * Opens the journal of an existing SQLite store read-only (no migration, no write), e.g. to verify it
 * from another machine or a backup. Refuses a file that is not a toolcircuit store (`NotAStoreError`). A
 * store whose journal tables were dropped opens, and its verification reports the damage; so does a damaged
 * file, as far as it can be read.
 */
export async function openSqliteJournal(options: {
  readonly file: string;
  /** The store's current key: verification checks entries with it, anchors are signed with it. */
  readonly key?: JournalKey;
}): Promise<ReadonlyJournal> {
  if (!existsSync(options.file)) {
    throw new InvalidStoreOptionsError(
      'file',
      `${options.file} does not exist; give the path of the store's database file.`,
    );
  }
  const path = resolve(options.file);
  const Database = await loadBetterSqlite3();
  const open = () => openDatabase(Database, path, true);
  let connection: SqliteConnection;
  try {
    connection = new SqliteConnection(open(), realpathSync(path), { file: path, open, busyTimeoutMs: 5000 });
  } catch (error) {
    throw sqliteStoreError(error, path, true);
  }
  let version: number;
  try {
    const tables = new Set(
      (
        await connection.outsideTransaction(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('journal', 'journal_head', 'runs', 'run_calls', 'schema_migrations')",
          true,
        )
      ).map((row) => (row as { name: string }).name),
    );
    // Its migrations table is what makes a file a toolcircuit store; without it, it is some other file.
    if (!tables.has('schema_migrations')) {
      throw new NotAStoreError({
        store: path,
        problem: 'the file is a SQLite database but not a toolcircuit store (it has no journal tables)',
        nextStep: "Check the path: give the store's own database file (<data dir>/toolcircuit.sqlite by default).",
        retryable: false,
      });
    }
    version = await appliedVersion(connection);
    const latest = sqliteMigrations.length;
    if (version > latest) throw new UnsupportedSchemaVersionError(version, latest);
    const missing = JOURNAL_TABLES.filter((table) => !tables.has(table));
    if (missing.length > 0) return missingTableJournal(missing, version, () => connection.close());
  } catch (error) {
    await connection.close();
    throw error;
  }
  return readonlyJournalOf(
    new BackedStore(new SqlBackend(connection, version), options.key === undefined ? {} : { key: options.key }, {
      location: path,
    }),
  );
}
