import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';

/** The time-outs of a PostgreSQL store, in milliseconds; 0 turns one off. */
export interface PostgresTimeouts {
  /**
   * Getting a connection: connecting, or waiting for a free one of the pool. Default 10 000. URL:
   * `connect_timeout` (seconds, as libpq).
   */
  readonly connectMs?: number;
  /**
   * One statement on the server (PostgreSQL's `statement_timeout`, lock waits included). Default 30 000.
   * URL: `statement_timeout`.
   */
  readonly statementMs?: number;
  /**
   * Waiting for any answer before the connection is dropped (a silent network, which no server setting
   * can catch). Default `statementMs` + 5 000. URL: `query_timeout`.
   */
  readonly queryMs?: number;
  /**
   * A transaction of the store left idle (its process stalled, its network gone) is ended by the server
   * after this, releasing the locks it held (PostgreSQL's `idle_in_transaction_session_timeout`). Default
   * 15 000. URL: `idle_in_transaction_session_timeout`.
   */
  readonly idleInTransactionMs?: number;
  /** An unused connection of the pool is closed after this. Default 30 000. */
  readonly idleMs?: number;
  /**
   * TCP keep-alive on every connection: the first probe after this much silence, so a connection to a
   * vanished server is noticed while idle. Default 10 000. URL: `keepalives=0` turns it off,
   * `keepalives_idle` (seconds).
   */
  readonly keepAliveMs?: number;
}

export type ResolvedTimeouts = Required<PostgresTimeouts>;

const DEFAULTS = {
  connectMs: 10_000,
  statementMs: 30_000,
  idleInTransactionMs: 15_000,
  idleMs: 30_000,
  keepAliveMs: 10_000,
};

/** The URL parameters read here (and taken out of the URL, so that an explicit option wins over them). */
const URL_PARAMETERS = [
  'connect_timeout',
  'statement_timeout',
  'query_timeout',
  'idle_in_transaction_session_timeout',
  'keepalives',
  'keepalives_idle',
] as const;

/**
 * The store's time-outs: an option given to the store, else the connection URL's parameter, else the
 * default; and the URL without those parameters (node-postgres would let them override what it is given,
 * and ignores `connect_timeout` and `keepalives` altogether).
 */
export function postgresSettings(
  connectionString: string | undefined,
  given: PostgresTimeouts = {},
): { timeouts: ResolvedTimeouts; connectionString: string | undefined } {
  const url = parsedUrl(connectionString);
  const fromUrl = (name: (typeof URL_PARAMETERS)[number], scale = 1): number | undefined => {
    const raw = url?.searchParams.get(name);
    if (raw === null || raw === undefined || raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) {
      throw new InvalidStoreOptionsError(
        'connectionString',
        `the URL parameter ${name}=${raw} is not a number of ${scale === 1 ? 'milliseconds' : 'seconds'}.`,
      );
    }
    return value * scale;
  };
  const keepAliveOff = url?.searchParams.get('keepalives') === '0';
  const pick = (name: keyof PostgresTimeouts, url: number | undefined, fallback: number): number => {
    const value = given[name] ?? url ?? fallback;
    if (!Number.isFinite(value) || value < 0) {
      throw new InvalidStoreOptionsError(
        `timeouts.${name}`,
        `${value} is not a number of milliseconds (0 turns it off).`,
      );
    }
    return Math.floor(value);
  };
  const statementMs = pick('statementMs', fromUrl('statement_timeout'), DEFAULTS.statementMs);
  const timeouts: ResolvedTimeouts = {
    connectMs: pick('connectMs', fromUrl('connect_timeout', 1000), DEFAULTS.connectMs),
    statementMs,
    queryMs: pick('queryMs', fromUrl('query_timeout'), statementMs === 0 ? 0 : statementMs + 5_000),
    idleInTransactionMs: pick(
      'idleInTransactionMs',
      fromUrl('idle_in_transaction_session_timeout'),
      DEFAULTS.idleInTransactionMs,
    ),
    idleMs: pick('idleMs', undefined, DEFAULTS.idleMs),
    keepAliveMs: pick('keepAliveMs', keepAliveOff ? 0 : fromUrl('keepalives_idle', 1000), DEFAULTS.keepAliveMs),
  };
  if (url === undefined || !URL_PARAMETERS.some((name) => url.searchParams.has(name))) {
    return { timeouts, connectionString };
  }
  for (const name of URL_PARAMETERS) url.searchParams.delete(name);
  return { timeouts, connectionString: url.toString() };
}

/** The store as messages name it: its schema, and the server and database (never the user or password). */
export function postgresLocation(
  schema: string,
  config:
    | {
        readonly connectionString?: string | undefined;
        readonly host?: string | undefined;
        readonly port?: number | undefined;
        readonly database?: string | undefined;
      }
    | undefined,
): string {
  const url = parsedUrl(config?.connectionString);
  const host = url?.hostname || url?.searchParams.get('host') || config?.host || process.env.PGHOST || 'localhost';
  const port = url?.port || config?.port || process.env.PGPORT || 5432;
  const database = url?.pathname.replace(/^\//, '') || config?.database || process.env.PGDATABASE || '';
  return `schema "${schema}" of postgres://${host}:${port}/${decodeURIComponent(database)}`;
}

function parsedUrl(connectionString: string | undefined): URL | undefined {
  if (connectionString === undefined) return undefined;
  try {
    return new URL(connectionString);
  } catch {
    return undefined;
  }
}
