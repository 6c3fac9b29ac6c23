import { StoreError } from './store-error.js';

/**
 * The database could not be reached or could not do the work: the connection was refused or lost, the
 * server is starting or shutting down, the disk is full or failing, the file cannot be opened. Retryable
 * when it is expected to pass by itself (a lost connection, a restart); not when someone must act first
 * (a missing database, bad credentials, a full disk).
 */
export class StoreUnavailableError extends StoreError {
  readonly code = 'store_unavailable' as const;
}
