import type { Session } from '@toolcircuit/core';
import {
  type DurableRunResult,
  type DurableStore,
  type ExpiredClaim,
  type LeaseSweep,
  type RecoveredRun,
  recoverExpiredRuns,
  startLeaseSweep,
} from '@toolcircuit/stores';
import { asRunSession } from '../runs/as-run-session.js';
import type { RecoveryContext } from '../runs/run-routes.js';

/** How a run server takes over the runs a dead process left mid-turn. */
export interface RecoveryOptions {
  /**
   * The session to continue a run with: that of its human (`run.humanId`), built from your own
   * authentication, with the rights that human holds now (they are checked again before each call). The
   * server binds it to the run's session id. Return `undefined` to leave the run alone (the human's access
   * was revoked, or the run is not this server's to continue); it is asked again at the next sweep.
   */
  readonly sessionFor: (run: ExpiredClaim) => Session | undefined | Promise<Session | undefined>;
  /**
   * How often to look for runs whose process stopped renewing its lease, in milliseconds. Default 5000.
   * A dead process's runs are taken over within its lease (`leaseMs`) plus this.
   */
  readonly intervalMs?: number;
  /** Told of each run taken over, once it reached its next stop (or failed). Default: nothing. */
  readonly onRecovered?: (run: RecoveredRun) => void;
  /**
   * Told when a run could not be taken over (a store error, a catalogue that changed, an altered state) or
   * the store could not be read for expired runs (the sweep tries again at its next tick). Default:
   * `console.error`.
   */
  readonly onError?: (error: unknown) => void;
}

export const DEFAULT_RECOVERY_INTERVAL_MS = 5000;

/** What plays a recovered run: the server's own tracking around the runner's `recover`. */
type Recover = (runId: string, context: RecoveryContext) => Promise<DurableRunResult>;

/**
 * Starts the sweep that takes over, through the durable runner, the runs whose process died mid-turn (a
 * `resuming` run whose lease ended): first at once, then every `intervalMs`. Each run is claimed
 * atomically, so of several servers sharing the store one continues it; its calls that had started
 * without a recorded result are reported "outcome unknown", never run again. Paused runs are not touched:
 * they wait for their human's decision.
 */
export function startRecovery(
  store: DurableStore,
  recover: Recover,
  options: RecoveryOptions,
  now: () => Date,
): LeaseSweep {
  const { sessionFor, intervalMs, onRecovered } = options;
  const onError =
    options.onError ?? ((error: unknown) => console.error('@toolcircuit/server: a run could not be recovered', error));
  return startLeaseSweep(
    {
      recoverExpired: (recoverOptions) =>
        recoverExpiredRuns(
          store,
          now().toISOString(),
          (runId, context) => recover(runId, { session: context.session }),
          recoverOptions,
        ),
    },
    {
      intervalMs: intervalMs ?? DEFAULT_RECOVERY_INTERVAL_MS,
      sessionFor: async (run) => {
        const session = await sessionFor(run);
        return session === undefined ? undefined : asRunSession(session, run);
      },
      onRecovered: (run) => {
        if (run.outcome === 'failed') onError(run.error);
        onRecovered?.(run);
      },
      onError,
    },
  );
}
