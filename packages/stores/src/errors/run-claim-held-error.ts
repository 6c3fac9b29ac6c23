import type { RunStatus } from '../store/durable-store.js';
import { StoreError, type StoreErrorInit } from './store-error.js';

/**
 * `recover` was refused because another worker's claim on the run is still within its lease: that worker
 * may be running it now. Retryable once the lease ends; `recover(runId, { session, force: true })` takes
 * it over at once, for when that worker is known to have stopped. Nothing was changed.
 */
export class RunClaimHeldError extends StoreError {
  readonly code = 'run_claim_held' as const;
  readonly status: RunStatus;
  readonly workerId: string;
  readonly leaseExpiresAt: string;

  constructor(
    init: StoreErrorInit & { readonly status: RunStatus; readonly workerId: string; readonly leaseExpiresAt: string },
  ) {
    super(init);
    this.status = init.status;
    this.workerId = init.workerId;
    this.leaseExpiresAt = init.leaseExpiresAt;
  }
}
