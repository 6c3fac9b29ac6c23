import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const urlFile = fileURLToPath(new URL('../../../../.toolcircuit/postgres-url', import.meta.url));

export const POSTGRES_MISSING =
  'no PostgreSQL for the DBOS tests: set TOOLCIRCUIT_TEST_POSTGRES_URL or run `bash scripts/postgres.sh start`';

/**
 * The test server's URL: `TOOLCIRCUIT_TEST_POSTGRES_URL`, else the file `scripts/postgres.sh start` writes.
 * Under CI a missing server is a failure; elsewhere the tests skip and say why.
 */
export function serverUrl(): string | undefined {
  const fromEnv = process.env.TOOLCIRCUIT_TEST_POSTGRES_URL;
  let url = fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined;
  if (url === undefined && existsSync(urlFile)) url = readFileSync(urlFile, 'utf8').trim() || undefined;
  if (url === undefined && process.env.CI !== undefined && process.env.CI !== '') {
    throw new Error(`${POSTGRES_MISSING} (CI is set, so the PostgreSQL tests must run)`);
  }
  return url;
}

/**
 * A fresh database on the test server for one test file: DBOS's system tables and the tools' own table go
 * in it, and it is dropped afterwards. The server's user is a superuser on the throwaway server.
 */
export async function freshDatabase(
  server: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  // The session setting DBOS wants, given at connection time: without it, DBOS Transact sets it with a query
  // of its own on each new pool connection, queued behind the borrower's, and pg 8 prints a deprecation
  // warning for that ("client.query() when the client is already executing a query") in every process.
  url.searchParams.set('options', '-c idle_in_transaction_session_timeout=60000');
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
