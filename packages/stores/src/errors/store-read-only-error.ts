import { StoreError } from './store-error.js';

/**
 * The store can be read but not written: a SQLite file (or its -wal/-shm, or its folder) this process may
 * not write, a read-only file system, a file moved away while open, a PostgreSQL standby. Nothing was
 * written; retryable once someone fixes that, and the same store object then writes again, without a
 * restart (the writes of a running run are tried again meanwhile, for the store's `writeRetryMs`).
 */
export class StoreReadOnlyError extends StoreError {
  readonly code = 'store_read_only' as const;
}
