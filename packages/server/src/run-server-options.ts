import type { Session } from '@toolcircuit/core';
import type { DurableRunnerOptions } from '@toolcircuit/stores';
import type { RecoveryOptions } from './recovery/run-recovery.js';

/** Who is asking, from the application's own authentication; `undefined` answers 401. */
export type Authenticate = (request: Request) => Session | undefined | Promise<Session | undefined>;

export interface RunServerOptions extends DurableRunnerOptions {
  /**
   * The caller's session, from YOUR authentication (a verified token, a server-side login): rights and
   * human come from here only, never from a request body or the model. A run belongs to the `humanId` that
   * started it: only that human reads, decides or cancels it.
   */
  readonly authenticate: Authenticate;
  /**
   * Origins whose pages may call the state-changing routes (`Origin` header, exactly as browsers send it:
   * `https://app.example`). Default: the server's own origin only. Requests without `Origin` are not
   * browsers acting for another site and are let through.
   */
  readonly allowedOrigins?: readonly string[];
  /** The largest request body accepted, in bytes (413 above). Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** How many of a run's last journal rows `GET /runs/:id` shows. Default 20; 0 reads none. */
  readonly journalTail?: number;
  /**
   * Told of every failure answered 500 (the caller only learns that the server failed, never the details).
   * Default: `console.error`.
   */
  readonly onError?: (error: unknown, request: Request) => void;
  /**
   * Takes over the runs a dead process left mid-turn (killed, its machine gone): at once when the server
   * is created, then on a timer until `close()`, each continued through the durable runner once its lease
   * (`leaseMs`) has ended. Needs `sessionFor`, the session of a run's human. Without it, such runs wait for
   * a server that has it, or for the durable runner's `recover`.
   */
  readonly recovery?: RecoveryOptions;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_JOURNAL_TAIL = 20;
