import { describe, expect, it } from 'vitest';
import { InvalidStoreOptionsError } from '../../src/errors/invalid-store-options-error.js';
import { postgresLocation, postgresSettings } from '../../src/postgres/postgres-settings.js';

describe('PostgreSQL store settings', () => {
  it('has a time-out for connecting, statements, answers and idle transactions, and keep-alive, by default', () => {
    expect(postgresSettings('postgres://app@db:5432/app')).toEqual({
      timeouts: {
        connectMs: 10_000,
        statementMs: 30_000,
        queryMs: 35_000,
        idleInTransactionMs: 15_000,
        idleMs: 30_000,
        keepAliveMs: 10_000,
      },
      connectionString: 'postgres://app@db:5432/app',
    });
  });

  it("honours the URL's parameters (libpq's units), takes them out of the URL, and lets an option win", () => {
    const url =
      'postgres://app:s3cret@db:5432/app?sslmode=disable&connect_timeout=3&statement_timeout=2000' +
      '&idle_in_transaction_session_timeout=4000&keepalives_idle=20&query_timeout=9000';
    const { timeouts, connectionString } = postgresSettings(url, { statementMs: 1000 });
    expect(timeouts).toMatchObject({
      connectMs: 3000,
      statementMs: 1000,
      queryMs: 9000,
      idleInTransactionMs: 4000,
      keepAliveMs: 20_000,
    });
    // node-postgres would otherwise let the URL's statement_timeout override the option.
    expect(connectionString).toBe('postgres://app:s3cret@db:5432/app?sslmode=disable');
    expect(postgresSettings('postgres://db/app?keepalives=0').timeouts.keepAliveMs).toBe(0);
    // Without a statement time-out there is no answer time-out either, unless one is given.
    expect(postgresSettings('postgres://db/app', { statementMs: 0 }).timeouts.queryMs).toBe(0);
  });

  it('refuses a time-out that is not a number of milliseconds (or seconds in the URL), naming it', () => {
    expect(() => postgresSettings('postgres://db/app?connect_timeout=soon')).toThrow(InvalidStoreOptionsError);
    expect(() => postgresSettings('postgres://db/app?connect_timeout=soon')).toThrow(/connect_timeout=soon .*seconds/);
    expect(() => postgresSettings('postgres://db/app', { queryMs: -1 })).toThrow(/timeouts.queryMs/);
  });

  it('names the store by schema, server and database, never by user or password', () => {
    expect(postgresLocation('tc', { connectionString: 'postgres://app:s3cret@db.internal:6432/orders' })).toBe(
      'schema "tc" of postgres://db.internal:6432/orders',
    );
    expect(postgresLocation('tc', { host: '10.0.0.5', port: 5433, database: 'app' })).toBe(
      'schema "tc" of postgres://10.0.0.5:5433/app',
    );
  });
});
