import { StoreError } from './store-error.js';

/**
 * What was given is not a toolcircuit store: a file that is not a SQLite database (or whose first page was
 * overwritten), a database or schema without the store's tables. Not retryable: give the right one.
 */
export class NotAStoreError extends StoreError {
  readonly code = 'not_a_store' as const;
}
