import { NotAStoreError } from '../errors/not-a-store-error.js';
import { StoreCorruptError } from '../errors/store-corrupt-error.js';
import { isStoreError, type StoreErrorInit } from '../errors/store-error.js';
import { StoreReadOnlyError } from '../errors/store-read-only-error.js';
import { StoreTimeoutError } from '../errors/store-timeout-error.js';
import { StoreUnavailableError } from '../errors/store-unavailable-error.js';

/** Socket errors that mean the server could not be reached or the connection broke; they pass by themselves. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
]);

const RECONNECTS = 'Nothing was written. Try again once the server answers; the store reconnects by itself.';

/**
 * A node-postgres error as the store's typed error, naming the store and what to do; an error that is not
 * about the database being reachable, writable or sound (a constraint, the store's own checks) is returned
 * as it is. SQLSTATE codes: https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
export function postgresStoreError(error: unknown, store: string): unknown {
  if (!(error instanceof Error) || isStoreError(error)) return error;
  const raw = (error as { code?: unknown }).code;
  const code = typeof raw === 'string' ? raw : undefined;
  const detail = code === undefined ? error.message : `${code}: ${error.message}`;
  const base = { store, driverCode: code, cause: error };
  const unavailable = (problem: string, nextStep: string, retryable: boolean) =>
    new StoreUnavailableError({ ...base, problem: `${problem} (${detail})`, nextStep, retryable });
  const timedOut = (problem: string, nextStep: string) =>
    new StoreTimeoutError({ ...base, problem: `${problem} (${detail})`, nextStep, retryable: true });

  if (code === 'ECONNREFUSED') {
    return unavailable(
      'the database server refused the connection',
      `Check that it is up and listening; ${RECONNECTS}`,
      true,
    );
  }
  if (code === 'ENOTFOUND') {
    return unavailable('the database host name does not resolve', 'Check the host in the connection URL.', false);
  }
  if (
    (code !== undefined && NETWORK_CODES.has(code)) ||
    code?.startsWith('08') === true ||
    code === '57P01' ||
    code === '57P02' ||
    /Connection terminated unexpectedly|not queryable|Connection terminated$/.test(error.message)
  ) {
    return unavailable('the connection to the database was lost', RECONNECTS, true);
  }
  if (code === '57P03') return unavailable('the database server is starting up or shutting down', RECONNECTS, true);
  if (/timeout expired|timeout exceeded when trying to connect|connection timeout/i.test(error.message)) {
    return timedOut(
      'the database did not accept a connection in time',
      `${RECONNECTS} If the server is slow to accept connections, raise timeouts.connectMs (or connect_timeout in the URL).`,
    );
  }
  if (code === '57014' || code === '55P03') {
    return timedOut(
      'a statement ran past its time-out (a lock held by another transaction, or a slow server)',
      "Nothing was written. Try again; if it keeps happening, look for a long transaction holding the store's rows, or raise timeouts.statementMs.",
    );
  }
  if (code === '25P03') {
    return timedOut(
      'the server ended a transaction of this store that stayed idle too long',
      'Nothing was written. Try again; raise timeouts.idleInTransactionMs if this process is too busy to answer in time.',
    );
  }
  if (code === '40001' || code === '40P01') {
    return unavailable(
      'the database aborted the transaction (serialization failure or deadlock)',
      'Nothing was written. Try again.',
      true,
    );
  }
  if (code === '53300' || code === '53400') {
    return unavailable(
      'the database server has no connection left',
      `${RECONNECTS} Lower maxConnections, or raise the server's max_connections.`,
      true,
    );
  }
  if (code === '53200' || code === '53000') {
    return unavailable('the database server ran out of resources', RECONNECTS, true);
  }
  if (code === '53100') {
    return unavailable(
      'the disk of the database server is full',
      'Nothing was written. Free space on the server; the store then writes again, without a restart.',
      true,
    );
  }
  if (code === '3D000') {
    return unavailable(
      'the database does not exist',
      'Create it (createdb), or fix the database name in the URL.',
      false,
    );
  }
  if (code === '28P01' || code === '28000') {
    return unavailable(
      'the server refused the credentials',
      'Check the user and password in the URL (or PGPASSWORD).',
      false,
    );
  }
  if (code === '42501') {
    return unavailable(
      "the store's database user may not do this",
      "Grant the store's user the use of its schema and tables (or connect as their owner).",
      false,
    );
  }
  if (code === '25006') {
    return new StoreReadOnlyError({
      ...base,
      problem: `the server accepts no writes (${detail}): a standby, or default_transaction_read_only is on`,
      nextStep: 'Nothing was written. Point the store at the primary server; the same store then writes again.',
      retryable: true,
    });
  }
  if (code === 'XX001' || code === 'XX002') {
    return new StoreCorruptError({
      ...base,
      problem: `the database reports damaged data (${detail})`,
      nextStep:
        "Restore the store's schema from a backup (or repair the table the server names); `toolcircuit journal verify` " +
        'names the first journal entry that cannot be read. The store creates and claims no run while it is damaged.',
      retryable: false,
    });
  }
  if (code?.startsWith('58') === true) {
    return unavailable(
      'the database server failed to read or write its files',
      "Nothing was written. Check the server's disk and logs.",
      true,
    );
  }
  if (code === '42P01' || code === '3F000') {
    return new NotAStoreError({
      ...base,
      problem: `the store's tables are missing (${detail})`,
      nextStep:
        'Check the `schema` option and the database in the URL; opening the store with openPostgresStore creates them.',
      retryable: false,
    } satisfies StoreErrorInit);
  }
  return error;
}

/** Whether the connection an error came from can still be used (a statement failed; the session is fine). */
export function connectionUsable(error: unknown): boolean {
  return (error as { severity?: unknown } | null)?.severity === 'ERROR';
}
