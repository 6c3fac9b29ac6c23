import { existsSync, realpathSync } from 'node:fs';
import Database from 'better-sqlite3';
import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';
import { UnsupportedSchemaVersionError } from '../errors/unsupported-schema-version-error.js';
import type { JournalKey } from '../journal/journal-key.js';
import { SqlBackend } from '../sql/sql-backend.js';
import { appliedVersion } from '../sql/sql-migrations.js';
import { BackedStore } from '../store/backed-store.js';
import { type ReadonlyJournal, readonlyJournalOf } from '../store/readonly-journal.js';
import { SqliteConnection } from './sqlite-connection.js';
import { sqliteMigrations } from './sqlite-migrations.js';

/**
 * Opens the journal of an existing SQLite store read-only (no migration, no write), e.g. to verify it
 * from another machine or a backup. Refuses a file that is not a toolcircuit store.
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
  const db = new Database(options.file, { readonly: true, fileMustExist: true });
  const connection = new SqliteConnection(db, realpathSync(options.file));
  let version: number;
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('journal', 'journal_head', 'schema_migrations')",
      )
      .all();
    if (tables.length < 3) {
      throw new InvalidStoreOptionsError(
        'file',
        `${options.file} is not a toolcircuit store (it has no journal tables).`,
      );
    }
    version = await appliedVersion(connection);
    const latest = sqliteMigrations.length;
    if (version > latest) throw new UnsupportedSchemaVersionError(version, latest);
  } catch (error) {
    await connection.close();
    throw error;
  }
  return readonlyJournalOf(
    new BackedStore(new SqlBackend(connection, version), options.key === undefined ? {} : { key: options.key }),
  );
}
