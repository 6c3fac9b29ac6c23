import { ClaimLostError } from '../errors/claim-lost-error.js';
import { RunNotFoundError } from '../errors/run-not-found-error.js';
import type { DurableStore, RunClaim } from '../store/durable-store.js';

/** How many renewals fit in one lease: a lease survives two renewals missed in a row (a slow store, a pause). */
const RENEWALS_PER_LEASE = 3;

/**
 * Keeps a claim's lease ahead of the clock while its worker runs the run: every third of `leaseMs` the
 * lease is moved to `leaseMs` from now, so a long turn (a slow tool, a long model request) is never taken
 * over by a sweep, and a worker that dies stops renewing, so its runs are taken over one lease after its
 * last renewal. Stops by itself once the claim is gone (finished, interrupted, or taken over). A renewal
 * that fails because the store is away is tried again at the next tick. Returns the function that stops it;
 * the timer never keeps a process alive. A lease of 0 (recover at once, tests) is not renewed.
 */
export function keepLease(
  store: DurableStore,
  runId: string,
  claim: RunClaim,
  leaseMs: number,
  clock: () => Date,
): () => void {
  if (!(leaseMs > 0)) return () => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(renew, Math.max(1, Math.floor(leaseMs / RENEWALS_PER_LEASE)));
    timer.unref?.();
  };
  const renew = () => {
    const leaseExpiresAt = new Date(clock().getTime() + leaseMs).toISOString();
    store.renewClaim({ runId, token: claim.token, leaseExpiresAt }).then(schedule, (error: unknown) => {
      // The claim ended or another worker holds the run: there is nothing left to keep.
      if (!(error instanceof ClaimLostError || error instanceof RunNotFoundError)) schedule();
    });
  };
  schedule();
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
  };
}
