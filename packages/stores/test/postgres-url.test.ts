import { afterEach, describe, expect, it, vi } from 'vitest';
import { POSTGRES_MISSING, requirePostgresInCi } from './support/postgres-url.js';

// Outside CI a clone without a PostgreSQL server skips those tests and says why; in CI it must fail.
describe('PostgreSQL test server policy', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('fails under CI when no server is given', () => {
    vi.stubEnv('CI', 'true');
    expect(() => requirePostgresInCi(undefined)).toThrow('(CI is set, so the PostgreSQL tests must run)');
  });

  it('lets the tests skip outside CI, with a reason that says how to point them at a server', () => {
    vi.stubEnv('CI', '');
    expect(() => requirePostgresInCi(undefined)).not.toThrow();
    expect(POSTGRES_MISSING).toContain('TOOLCIRCUIT_TEST_POSTGRES_URL');
  });

  it('runs them whenever a URL is given', () => {
    vi.stubEnv('CI', 'true');
    expect(() => requirePostgresInCi('postgres://127.0.0.1:5432/db')).not.toThrow();
  });
});
