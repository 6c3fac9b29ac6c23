export interface ThrowawayPostgres {
  readonly url: string;
  readonly port: number;
  /** Stops the server at once, as a crash does (`pg_ctl stop -m immediate`: no checkpoint, recovery at start). */
  crash(): Promise<void>;
  /** SIGKILLs the postmaster and every backend, then waits until they are gone. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** The end of the server's log. */
  log(): string;
  destroy(): Promise<void>;
}

/** The newest installed server's bin folder (`/usr/lib/postgresql/<version>/bin`), if any. */
export function postgresBinDir(): string | undefined;
export function freePort(): Promise<number>;
export function startThrowawayPostgres(bin: string, options?: { readonly fsync?: boolean }): Promise<ThrowawayPostgres>;
