import { RunClaimHeldError } from '../errors/run-claim-held-error.js';
import { isStoreError } from '../errors/store-error.js';
import type { RunClaim } from '../store/durable-store.js';

/**
 * The error to throw when a claimed attempt failed: its own error, unless the store could not record
 * that the attempt ended either (it is away). The run is then still `resuming` under this worker's claim,
 * and the store's error says so and what to do; the attempt's error is its cause.
 */
export function attemptFailure(failure: unknown, closeFailure: unknown, runId: string, claim: RunClaim): unknown {
  if (!isStoreError(closeFailure)) return failure;
  const why = failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure);
  return closeFailure.forRun(
    runId,
    `The attempt failed (${why.slice(0, 500)}) and the store could not record that, so the run is still ` +
      `"resuming" under this worker's claim. Once the store is back, call recover("${runId}", { session }) in this ` +
      `process (it takes over its own failed attempt without force), or in any other after the lease ends at ` +
      `${claim.leaseExpiresAt}.`,
    failure,
  );
}

/** Why `recover` was refused on a run another live claim holds, with the two ways forward. */
export function claimHeld(store: string, runId: string, claim: RunClaim): RunClaimHeldError {
  return new RunClaimHeldError({
    store,
    runId,
    status: 'resuming',
    workerId: claim.workerId,
    leaseExpiresAt: claim.leaseExpiresAt,
    problem: `the run is "resuming": worker "${claim.workerId}" holds it until ${claim.leaseExpiresAt} and may be running it now`,
    nextStep:
      'Nothing was changed. Call recover() again once that lease has ended, or now with ' +
      `recover("${runId}", { session, force: true }) if you know that worker has stopped.`,
    retryable: true,
  });
}
