import { StoreError } from './store-error.js';

/**
 * The database is damaged (a SQLite page that does not check out, PostgreSQL's "invalid page"). Not
 * retryable: restore the store from a backup. Once a store meets damage it refuses to create or claim runs,
 * so nothing new is built on it; `verifyJournal()` reports it as a finding.
 */
export class StoreCorruptError extends StoreError {
  readonly code = 'store_corrupt' as const;
}
