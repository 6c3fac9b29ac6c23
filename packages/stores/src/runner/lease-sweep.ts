import type { LoopResult, Session } from '@toolcircuit/core';
import { RunClaimConflictError } from '../errors/run-claim-conflict-error.js';
import { RunClaimHeldError } from '../errors/run-claim-held-error.js';
import type { DurableStore, ExpiredClaim } from '../store/durable-store.js';

/** What `recover` returns: the runner's `DurableRunResult` (named here so that this file needs no runner). */
type RecoveredResult = LoopResult & { readonly unknownOutcomes: readonly string[] };

/** The runner's `recover`, as a sweep calls it. */
type Recover = (
  runId: string,
  context: { readonly session: Session; readonly signal?: AbortSignal },
) => Promise<RecoveredResult>;

export interface RecoverExpiredOptions {
  /**
   * The session to continue a run with: that of the human who started it (`run.sessionId`, `run.humanId`),
   * built from your own authentication, as for `recover` (its rights are checked again). Return undefined to
   * leave the run alone (e.g. the human's access was revoked); it is listed again at the next sweep.
   */
  readonly sessionFor: (run: ExpiredClaim) => Session | undefined | Promise<Session | undefined>;
  /** At most this many runs per call. Default 100. */
  readonly limit?: number;
  /** Given to each recovered run's loop. */
  readonly signal?: AbortSignal;
  /** Told of each run as soon as its recovery settles (before the whole call returns). */
  readonly onRecovered?: (run: RecoveredRun) => void;
}

/**
 * What became of one expired run:
 * - `recovered`: this worker claimed it and ran it to its next stop (finished, paused again or interrupted
 *   by the model: see `result.status`); calls that had started without a recorded result are in
 *   `result.unknownOutcomes`, never run again.
 * - `taken`: another worker claimed it first, or its own worker renewed its lease meanwhile: nothing ran here.
 * - `skipped`: `sessionFor` gave no session.
 * - `failed`: the recovery threw (a store error, a catalogue that changed, an altered state): see `error`.
 */
export type RecoveredRun =
  | { readonly runId: string; readonly outcome: 'recovered'; readonly result: RecoveredResult }
  | { readonly runId: string; readonly outcome: 'taken' | 'skipped' }
  | { readonly runId: string; readonly outcome: 'failed'; readonly error: unknown };

/** The runner, as a sweep uses it. */
export interface ExpiredRunRecoverer {
  recoverExpired(options: RecoverExpiredOptions): Promise<RecoveredRun[]>;
}

/**
 * Lists the runs whose lease ended before `at` and recovers each, all at once. The claim is atomic: of two
 * workers recovering the same run one claims it, the other's is `taken`. `recover` is the runner's own, or
 * one that wraps it (a server that tracks and streams each run it plays); it must throw the runner's
 * claim errors as they are.
 */
export async function recoverExpiredRuns(
  store: DurableStore,
  at: string,
  recover: Recover,
  options: RecoverExpiredOptions,
): Promise<RecoveredRun[]> {
  const expired = await store.listExpiredClaims({
    at,
    ...(options.limit === undefined ? {} : { limit: options.limit }),
  });
  return Promise.all(
    expired.map(async (run): Promise<RecoveredRun> => {
      const settled = await recoverOne(run, recover, options);
      options.onRecovered?.(settled);
      return settled;
    }),
  );
}

async function recoverOne(run: ExpiredClaim, recover: Recover, options: RecoverExpiredOptions): Promise<RecoveredRun> {
  const { runId } = run;
  try {
    const session = await options.sessionFor(run);
    if (session === undefined) return { runId, outcome: 'skipped' };
    const result = await recover(runId, {
      session,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return { runId, outcome: 'recovered', result };
  } catch (error) {
    // Claimed by another sweep first, or renewed by its worker after the list was read: not ours to run.
    if (error instanceof RunClaimConflictError || error instanceof RunClaimHeldError)
      return { runId, outcome: 'taken' };
    return { runId, outcome: 'failed', error };
  }
}

export interface LeaseSweepOptions extends Omit<RecoverExpiredOptions, 'signal'> {
  // No signal: stopping a sweep lets the runs it recovers reach their next stop rather than abort them.
  /** How often to look for expired runs. A dead worker's runs are taken over within its lease plus this. */
  readonly intervalMs: number;
  /** Listing failed (the store is away): the sweep goes on at the next tick. Default: ignored. */
  readonly onError?: (error: unknown) => void;
}

export interface LeaseSweep {
  /** Stops looking; resolves once the recoveries this sweep started have settled. */
  stop(): Promise<void>;
}

/**
 * Starts a sweep in this worker: every `intervalMs` it recovers the runs whose worker stopped renewing its
 * lease (it died, or its machine is gone for good), without waiting for that worker to come back. Run one
 * in every worker of a fleet: each run is claimed by exactly one of them. A recovered run goes on in this
 * worker until its next stop (`recover`), under a lease of its own that this worker renews. The timer never
 * keeps a process alive.
 */
export function startLeaseSweep(runner: ExpiredRunRecoverer, options: LeaseSweepOptions): LeaseSweep {
  const { intervalMs, onError, ...recoverOptions } = options;
  const inFlight = new Set<Promise<unknown>>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    // Not awaited across ticks: a recovered run may take long, and other runs may expire meanwhile. A run
    // this worker is recovering is claimed under a fresh lease, so a later tick does not list it again.
    const batch = runner.recoverExpired(recoverOptions).catch(onError ?? (() => undefined));
    inFlight.add(batch);
    void batch.finally(() => inFlight.delete(batch));
    timer = setTimeout(tick, intervalMs);
    timer.unref?.();
  };
  timer = setTimeout(tick, 0);
  timer.unref?.();
  return {
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}
