import { StoreError } from './store-error.js';

/**
 * The store can be read but not written: a SQLite file (or its -wal/-shm, or its folder) this process may
 * not write, a read-only file system, a file moved away while open, a PostgreSQL standby. Someone must fix
 * that first (not retryable); the same store object then writes again, without a restart.
 */
export class StoreReadOnlyError extends StoreError {
  readonly code = 'store_read_only' as const;
}
