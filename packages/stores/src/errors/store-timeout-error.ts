import { StoreError, type StoreErrorInit } from './store-error.js';

/**
 * The database did not answer in time: connecting, a statement past its time-out, a lock held by another
 * process or transaction longer than the store waits for it. Nothing was written; always retryable.
 */
export class StoreTimeoutError extends StoreError {
  readonly code = 'store_timeout' as const;
  /** How long the store waited, when it knows. */
  readonly waitedMs: number | undefined;

  constructor(init: StoreErrorInit & { readonly waitedMs?: number }) {
    super(init);
    this.waitedMs = init.waitedMs;
  }
}
