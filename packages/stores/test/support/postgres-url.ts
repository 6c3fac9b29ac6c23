import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const urlFile = fileURLToPath(new URL('../../../../.toolcircuit/postgres-url', import.meta.url));

/**
 * The test server's URL: `TOOLCIRCUIT_TEST_POSTGRES_URL`, else the file `scripts/postgres.sh start` writes.
 * Undefined when neither exists; callers fail under CI and skip (saying why) elsewhere.
 */
export function postgresTestUrl(): string | undefined {
  const fromEnv = process.env.TOOLCIRCUIT_TEST_POSTGRES_URL;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (existsSync(urlFile)) {
    const fromFile = readFileSync(urlFile, 'utf8').trim();
    if (fromFile !== '') return fromFile;
  }
  return undefined;
}

export const POSTGRES_MISSING =
  'no PostgreSQL for the store tests: set TOOLCIRCUIT_TEST_POSTGRES_URL or run `bash scripts/postgres.sh start`';

/** Under CI a missing server is a failure, not a skip. */
export function requirePostgresInCi(url: string | undefined): void {
  if (url === undefined && process.env.CI !== undefined && process.env.CI !== '') {
    throw new Error(`${POSTGRES_MISSING} (CI is set, so the PostgreSQL tests must run)`);
  }
}
