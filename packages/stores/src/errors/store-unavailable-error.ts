import { StoreError } from './store-error.js';

/**
 * The database could not be reached or could not do the work: the connection was refused or lost, the
 * server is starting or shutting down, the disk is full or failing, the file cannot be opened. Retryable
 * when it passes by itself or once the database is fixed (a lost connection, a restart, a full disk); not
 * when the configuration is wrong (a missing database, bad credentials, an unknown host) or when a commit's
 * outcome could not be learnt.
 */
export class StoreUnavailableError extends StoreError {
  readonly code = 'store_unavailable' as const;
}
