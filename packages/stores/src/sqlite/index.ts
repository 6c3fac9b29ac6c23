export { openSqliteJournal } from './open-sqlite-journal.js';
export { openSqliteStore, SQLITE_STORE_FILE, type SqliteStore, type SqliteStoreOptions } from './open-sqlite-store.js';
export { openSqliteToolVectors, type SqliteToolVectors } from './open-sqlite-tool-vectors.js';
export { sqliteMigrations } from './sqlite-migrations.js';
