import { isStoreError } from '../errors/store-error.js';

/** The writes of a claimed run are tried again this long by default while the database is away. */
export const DEFAULT_WRITE_RETRY_MS = 30_000;

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 2_000;

/**
 * Runs `write` again, with growing pauses, while it fails with a store error that says it wrote nothing and
 * may pass by itself (`retryable`: a lost connection, a restart, a lock or statement time-out), until
 * `budgetMs` has gone by; then the last error is thrown. Any other error is thrown at once. Safe because
 * each store write is one transaction that checks the claim again: a retry after a rollback is a first try.
 */
export async function retryWhileUnavailable<T>(write: () => Promise<T>, budgetMs: number): Promise<T> {
  const started = performance.now();
  let delay = FIRST_DELAY_MS;
  for (;;) {
    try {
      return await write();
    } catch (error) {
      if (!isStoreError(error) || !error.retryable) throw error;
      if (performance.now() - started + delay > budgetMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}
