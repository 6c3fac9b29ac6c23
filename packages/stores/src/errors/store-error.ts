import { ToolcircuitError } from '@toolcircuit/core';

/** What every store error is built from; `forRun` builds the same error again for a run. */
export interface StoreErrorInit {
  /** The store: its SQLite file, or its PostgreSQL schema and database (never a password). */
  readonly store: string;
  /** What went wrong, in a sentence without the store's name. */
  readonly problem: string;
  /** What to do about it. */
  readonly nextStep: string;
  readonly retryable: boolean;
  readonly runId?: string | undefined;
  /** The driver's own code: `SQLITE_BUSY`, a PostgreSQL SQLSTATE such as `57P01`, `ECONNREFUSED`… */
  readonly driverCode?: string | undefined;
  readonly cause?: unknown;
}

/**
 * The database behind a store failed or refused. One family, one shape: which store (`store`), which run
 * when there is one (`runId`), whether to try again (`retryable`), and the next step, in the message.
 *
 * `retryable`: the operation wrote nothing and the same call can succeed later, with no change to the
 * application: once the condition passes by itself (a lost connection, a restart, a lock, a time-out) or
 * once someone fixes the database (its permissions, its disk space). Not retryable: a configuration to fix
 * (a missing database, credentials, a path), damage to restore from a backup, or a commit whose outcome
 * is unknown (doing it again could do it twice; its message says to read the run first).
 */
export abstract class StoreError extends ToolcircuitError {
  readonly kind = 'store' as const;
  abstract override readonly code: string;
  readonly store: string;
  readonly runId: string | undefined;
  readonly retryable: boolean;
  readonly driverCode: string | undefined;
  /** What this error was built from (to build it again for a run). */
  protected readonly init: StoreErrorInit;

  constructor(init: StoreErrorInit) {
    const run = init.runId === undefined ? '' : `, run "${init.runId}"`;
    super(`${init.problem} (store: ${init.store}${run}). ${init.nextStep}`, { cause: init.cause });
    this.store = init.store;
    this.runId = init.runId;
    this.retryable = init.retryable;
    this.driverCode = init.driverCode;
    this.init = init;
  }

  /** The same error about one run: its id, and a next step that says where the run stands (when given). */
  forRun(runId: string, nextStep?: string, cause?: unknown): this {
    const Class = this.constructor as new (init: StoreErrorInit) => this;
    return new Class({
      ...this.init,
      runId,
      ...(nextStep === undefined ? {} : { nextStep }),
      ...(cause === undefined ? {} : { cause }),
    });
  }
}

/** Duck-typed, so two copies of this package still recognise each other's errors. */
export function isStoreError(error: unknown): error is StoreError {
  return error instanceof Error && (error as { kind?: unknown }).kind === 'store' && 'retryable' in error;
}
