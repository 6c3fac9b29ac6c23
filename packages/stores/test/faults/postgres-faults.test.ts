// PostgreSQL failing under the durable runner, on a server of this file's own (killed, restarted, its
// backends terminated) and through a TCP proxy that can go silent or cut a connection at its COMMIT. What
// must hold whatever happens: the test process lives (node-postgres emits 'error' on a connection that
// dies), every error is a typed store error that says what to do, runs move on once the database is back,
// no call runs twice, and no result that was known is reported "outcome unknown".
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreTimeoutError, StoreUnavailableError } from '../../src/index.js';
import { openPostgresStore, type PostgresStore, type PostgresTimeouts } from '../../src/postgres/index.js';
import { audit, faultWorld, startFaultRun } from '../support/fault-world.js';
import { entry } from '../support/journal-entry.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.mjs';
import {
  freePort,
  postgresBinDir,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from '../support/throwaway-postgres.mjs';

const bin = postgresBinDir();
const MISSING =
  'no PostgreSQL server programs (initdb, pg_ctl) under /usr/lib/postgresql: run `bash scripts/postgres.sh start` once, which installs them';
if (bin === undefined && process.env.CI !== undefined && process.env.CI !== '') {
  throw new Error(`${MISSING} (CI is set, so the PostgreSQL fault tests must run)`);
}

describe.skipIf(bin === undefined)(`PostgreSQL faults${bin === undefined ? ` (skipped: ${MISSING})` : ''}`, () => {
  let server: ThrowawayPostgres;
  let proxy: TcpProxy;
  let schemas = 0;

  beforeAll(async () => {
    server = await startThrowawayPostgres(bin as string);
    proxy = await startTcpProxy(server.port);
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await server?.destroy();
  });

  /** A store on a schema of its own, straight to the server or through the proxy. */
  function open(
    options: { viaProxy?: boolean; timeouts?: PostgresTimeouts; writeRetryMs?: number; url?: string } = {},
  ): Promise<PostgresStore> {
    schemas += 1;
    const url =
      options.url ?? (options.viaProxy === true ? `postgres://postgres@127.0.0.1:${proxy.port}/postgres` : server.url);
    return openPostgresStore({
      connectionString: url,
      schema: `faults_${schemas}`,
      maxConnections: 4,
      ...(options.timeouts === undefined ? {} : { timeouts: options.timeouts }),
      ...(options.writeRetryMs === undefined ? {} : { writeRetryMs: options.writeRetryMs }),
    });
  }

  /** A connection of the test's own (not a store's), named so that it is told apart from the stores'. */
  async function admin(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: server.url, application_name: 'faults-admin' });
    client.on('error', () => {});
    await client.connect();
    return client;
  }

  async function sql(text: string): Promise<pg.QueryResult> {
    const client = await admin();
    try {
      return await client.query(text);
    } finally {
      await client.end();
    }
  }

  /** Backends of the stores (not the test's own), as the server lists them; `waiting`: those waiting on a lock. */
  async function storeBackends(waiting = false): Promise<number[]> {
    const { rows } = await sql(
      "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND application_name <> 'faults-admin'" +
        (waiting ? " AND wait_event_type = 'Lock'" : ''),
    );
    return rows.map((row) => Number(row.pid));
  }

  async function until(check: () => Promise<boolean>, what: string): Promise<void> {
    for (let tries = 0; tries < 500; tries += 1) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`never happened: ${what}`);
  }

  it('a backend terminated while a transaction holds its connection: the process lives, the write is retried', async () => {
    const store = await open();
    // Once the first note has run, another session takes the journal's head row: the write of its result
    // waits on the server with its connection checked out of the pool, and that backend is terminated.
    const holder = await admin();
    const world = faultWorld({
      onRun: async (key) => {
        if (key !== 'terminated/a') return;
        await holder.query('BEGIN');
        await holder.query(`SELECT * FROM ${store.schema}.journal_head FOR UPDATE`);
      },
    });
    try {
      const run = startFaultRun(world.runner(store), 'terminated');
      await until(async () => (await storeBackends(true)).length > 0, 'the result write waits on the lock');
      await sql(
        `SELECT pg_terminate_backend(pid) FROM unnest(ARRAY[${(await storeBackends(true)).join(', ')}]) AS pid`,
      );
      await holder.query('COMMIT');
      await holder.end();
      const result = await run;
      expect(result.status).toBe('completed');
      expect(await audit(store, world, ['terminated'])).toEqual({
        statuses: { completed: 1 },
        unknown: 0,
        doubles: 0,
        verified: true,
      });
    } finally {
      await store.close();
    }
  });

  it('the server SIGKILLed and restarted while runs are in flight: every run completes, none twice, none unknown', async () => {
    const store = await open();
    const world = faultWorld({ toolMs: 150 });
    const runIds = Array.from({ length: 6 }, (_, index) => `killed-${index}`);
    try {
      const runner = world.runner(store);
      const runs = runIds.map((runId) => startFaultRun(runner, runId));
      // Once every run is stored (a start the server dies under fails with its typed error, which is not
      // what this test is about: on a loaded machine a start could still be asking whether its id is taken)
      // and some notes have run, the server and every backend die; it comes back a moment later.
      await until(
        async () => (await Promise.all(runIds.map((runId) => store.getRun(runId)))).every((run) => run !== undefined),
        'every run stored',
      );
      await until(async () => world.executions.size >= 3, 'some notes ran');
      await server.kill();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await server.start();
      const results = await Promise.all(runs);
      expect(results.map((result) => result.status)).toEqual(runIds.map(() => 'completed'));
      expect(results.flatMap((result) => result.unknownOutcomes)).toEqual([]);
      expect(await audit(store, world, runIds)).toEqual({
        statuses: { completed: runIds.length },
        unknown: 0,
        doubles: 0,
        verified: true,
      });
      expect(world.executions.size).toBe(runIds.length * 2);
    } finally {
      await store.close();
    }
  });

  it('a commit whose answer is lost is neither done twice nor reported failed: the store asks the server', async () => {
    const store = await open({ viaProxy: true });
    try {
      // The server commits, the connection is cut before the answer: the store learns it committed.
      const committed = proxy.cutAtNextCommit('after-commit');
      await store.journal.append(entry('lost-answer', 'c1'));
      await committed;
      // The server never sees the COMMIT (it rolls back): the store learns that too, and writes again.
      const rolledBack = proxy.cutAtNextCommit('before-commit');
      await store.journal.append(entry('lost-answer', 'c2'));
      await rolledBack;
      const rows = await store.readJournal({ runId: 'lost-answer' });
      expect(rows.map((row) => (row.record as { callId?: string }).callId)).toEqual(['c1', 'c2']);
      expect((await store.verifyJournal()).ok).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('a silent network: the store gives up in time with a typed error, and works again once it heals', async () => {
    const store = await open({ viaProxy: true, timeouts: { queryMs: 400, connectMs: 400 }, writeRetryMs: 0 });
    try {
      await store.journal.append(entry('partition', 'before'));
      proxy.stall();
      const silent = store.getRun('partition');
      await expect(silent).rejects.toBeInstanceOf(StoreTimeoutError);
      await expect(silent).rejects.toMatchObject({ retryable: true, store: store.location });
      await expect(store.journal.append(entry('partition', 'during'))).rejects.toMatchObject({
        code: 'store_timeout',
        runId: 'partition',
        retryable: true,
      });
      proxy.heal();
      proxy.cutAll();
      await store.journal.append(entry('partition', 'after'));
      const rows = await store.readJournal({ runId: 'partition' });
      expect(rows.map((row) => (row.record as { callId?: string }).callId)).toEqual(['before', 'after']);
    } finally {
      proxy.heal();
      await store.close();
    }
  });

  it('opening against a server that accepts and never answers fails in time; connect_timeout in the URL counts', async () => {
    proxy.stall();
    try {
      const url = `postgres://postgres@127.0.0.1:${proxy.port}/postgres`;
      for (const options of [
        { url: `${url}?connect_timeout=1` },
        // An option of the store wins over the URL's parameter.
        { url: `${url}?connect_timeout=3600`, timeouts: { connectMs: 300 } },
      ]) {
        const opening = open(options);
        await expect(opening).rejects.toBeInstanceOf(StoreTimeoutError);
        await expect(opening).rejects.toThrow(/did not accept a connection in time|no database connection within/);
        await expect(opening).rejects.toThrow(new RegExp(`of postgres://127.0.0.1:${proxy.port}/postgres`));
      }
    } finally {
      proxy.heal();
      proxy.cutAll();
    }
  });

  it('opening against no server, or a database that does not exist: typed, saying whether to retry and what to do', async () => {
    const down = open({ url: `postgres://postgres@127.0.0.1:${await freePort()}/postgres` });
    await expect(down).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(down).rejects.toMatchObject({ retryable: true, driverCode: 'ECONNREFUSED' });
    await expect(down).rejects.toThrow(/refused the connection .* Check that it is up/);
    const missing = open({ url: `postgres://postgres@127.0.0.1:${server.port}/no_such_database` });
    await expect(missing).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(missing).rejects.toMatchObject({ retryable: false, driverCode: '3D000' });
    await expect(missing).rejects.toThrow(/does not exist .*no_such_database.* Create it/);
  });

  it('a lock held past the statement time-out: a typed time-out, and a claimed write waits it out', async () => {
    const store = await open({ timeouts: { statementMs: 300 }, writeRetryMs: 0 });
    const patient = await openPostgresStore({
      connectionString: server.url,
      schema: store.schema,
      timeouts: { statementMs: 300 },
    });
    const holder = await admin();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT * FROM ${store.schema}.journal_head FOR UPDATE`);
      const refused = store.journal.append(entry('locked', 'c1'));
      await expect(refused).rejects.toBeInstanceOf(StoreTimeoutError);
      await expect(refused).rejects.toMatchObject({ runId: 'locked', retryable: true, driverCode: '57014' });
      // With the default retry the write waits, statement after statement, until the lock is released.
      const waiting = patient.journal.append(entry('locked', 'c2'));
      await new Promise((resolve) => setTimeout(resolve, 800));
      await holder.query('COMMIT');
      await waiting;
      const rows = await store.readJournal({ runId: 'locked' });
      expect(rows.map((row) => (row.record as { callId?: string }).callId)).toEqual(['c2']);
    } finally {
      await holder.end();
      await patient.close();
      await store.close();
    }
  });
});
