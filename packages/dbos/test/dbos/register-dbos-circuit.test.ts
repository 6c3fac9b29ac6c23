import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDbosRuns, DbosRunStateError, type DbosRuns, registerDbosCircuit } from '../../src/index.js';
// @ts-expect-error: a plain-JS fixture shared with the worker processes
import { EFFECTS_DDL, POOL_SESSION, poolCatalogue, poolModel } from '../support/pool-circuit.mjs';
import { freshDatabase, POSTGRES_MISSING, serverUrl } from '../support/postgres.js';

const server = serverUrl();

describe.skipIf(server === undefined)(
  `a DBOS worker in this process (${server === undefined ? POSTGRES_MISSING : 'PostgreSQL'})`,
  () => {
    let database: { url: string; drop: () => Promise<void> };
    let effects: pg.Pool;
    let client: DBOSClient;
    let runs: DbosRuns;

    beforeAll(async () => {
      database = await freshDatabase(server as string, 'toolcircuit_dbos_one');
      effects = new pg.Pool({ connectionString: database.url, max: 3 });
      await effects.query(EFFECTS_DDL);
      // The README's worker, as written there.
      const circuit = registerDbosCircuit({
        model: poolModel(2),
        // The timeout test's run has a slow note; the README's worker has none.
        catalogue: poolCatalogue(effects, 'in-process', (context: { runId: string }) =>
          context.runId === 'run-e' ? 30_000 : 0,
        ),
        queue: { name: 'support-runs', workerConcurrency: 8, pollingIntervalMs: 100 },
      });
      DBOS.setConfig({ name: 'support-agent', systemDatabaseUrl: database.url, logLevel: 'error' });
      await DBOS.launch();
      await circuit.registerQueue();

      client = await DBOSClient.create({ systemDatabaseUrl: database.url });
      runs = createDbosRuns({ client, queueName: 'support-runs' });
    }, 120_000);

    afterAll(async () => {
      await client?.destroy();
      await DBOS.shutdown();
      await effects?.end();
      await database?.drop();
    }, 60_000);

    it('runs until the irreversible call, waits for the approval, then runs it once and finishes', async () => {
      const runId = await runs.start({
        runId: 'run-a',
        session: POOL_SESSION,
        messages: [{ role: 'user', content: 'run-a' }],
      });
      const paused = await runs.settled(runId, { intervalMs: 100, timeoutMs: 60_000 });
      expect(paused.status).toBe('paused');
      expect(paused.pending?.map((call) => call.toolName)).toEqual(['send_payment']);
      const before = await effects.query(
        'SELECT tool, count(*)::int AS n FROM tool_effects WHERE run_id = $1 GROUP BY tool',
        [runId],
      );
      expect(before.rows).toEqual([{ tool: 'record_note', n: 2 }]);

      const pending = paused.pending?.[0];
      const decision = {
        callId: pending?.callId as string,
        approved: true,
        inputDigest: pending?.inputDigest as string,
      };
      await runs.approve(runId, [decision], POOL_SESSION);
      // The same turn approved again (a double click, a second approver): refused, not used.
      await expect(runs.approve(runId, [decision], POOL_SESSION)).rejects.toBeInstanceOf(DbosRunStateError);

      const done = await runs.settled(runId, { intervalMs: 100, timeoutMs: 60_000 });
      expect(done.status).toBe('completed');
      expect(done.outcome?.result.text).toBe('paid and noted');
      expect(done.unknownOutcomes).toEqual([]);
      const after = await effects.query(
        'SELECT tool, count(*)::int AS n FROM tool_effects WHERE run_id = $1 GROUP BY tool ORDER BY tool',
        [runId],
      );
      expect(after.rows).toEqual([
        { tool: 'record_note', n: 2 },
        { tool: 'send_payment', n: 1 },
      ]);
    }, 120_000);

    it('refuses an approval without the digest of the arguments shown, and a declined payment never runs', async () => {
      const runId = await runs.start({
        runId: 'run-b',
        session: POOL_SESSION,
        messages: [{ role: 'user', content: 'run-b' }],
      });
      const paused = await runs.settled(runId, { intervalMs: 100, timeoutMs: 60_000 });
      const callId = paused.pending?.[0]?.callId as string;
      await expect(runs.approve(runId, [{ callId, approved: true }], POOL_SESSION)).rejects.toThrow(/inputDigest/);
      await expect(
        runs.approve(runId, [{ callId, approved: true, inputDigest: 'f'.repeat(64) }], POOL_SESSION),
      ).rejects.toThrow();
      await runs.approve(runId, [{ callId, approved: false, note: 'not today' }], POOL_SESSION);
      const done = await runs.settled(runId, { intervalMs: 100, timeoutMs: 60_000 });
      expect(done.status).toBe('completed');
      const payments = await effects.query(
        "SELECT count(*)::int AS n FROM tool_effects WHERE run_id = $1 AND tool = 'send_payment'",
        [runId],
      );
      expect(payments.rows[0].n).toBe(0);
    }, 120_000);

    it('cancels a queued run through DBOS, and says so', async () => {
      const runId = await runs.start({
        runId: 'run-c',
        session: POOL_SESSION,
        messages: [{ role: 'user', content: 'run-c' }],
      });
      await runs.cancel(runId).catch(() => undefined);
      const state = await runs.settled(runId, { intervalMs: 100, timeoutMs: 60_000 });
      // Cancelled before a worker took it, or already paused: never both running and uncancelled.
      expect(['cancelled', 'paused']).toContain(state.status);
      await expect(runs.state('no-such-run')).rejects.toBeInstanceOf(DbosRunStateError);
    }, 120_000);

    it('maps a run timeout to a DBOS workflow timeout: the segment is cancelled at its deadline, and its running tool is stopped', async () => {
      // Its first note takes 30 s; the deadline is 1 s after a worker dequeues it. DBOS cancels the workflow,
      // the cancellation reaches the running tool through its signal, and the note writes nothing.
      const started = Date.now();
      const runId = await runs.start({
        runId: 'run-e',
        timeoutMs: 1_000,
        session: POOL_SESSION,
        messages: [{ role: 'user', content: 'run-e' }],
      });
      const state = await runs.settled(runId, { intervalMs: 100, timeoutMs: 60_000 });
      expect(state.status).toBe('cancelled');
      expect(Date.now() - started).toBeLessThan(25_000);
      // Time for a stopped tool's row to land, and for anything that wrongly ran on to show.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const effectsOfRun = await effects.query('SELECT call_id, tool FROM tool_effects WHERE run_id = $1', [runId]);
      // The first note was stopped by the cancellation; nothing took effect and nothing after it ran.
      expect(effectsOfRun.rows).toEqual([{ call_id: 'note_1', tool: 'aborted:record_note' }]);
    }, 120_000);

    it('cancels a paused run: no approval can continue it, and the payment never runs', async () => {
      const runId = await runs.start({
        runId: 'run-d',
        session: POOL_SESSION,
        messages: [{ role: 'user', content: 'run-d' }],
      });
      const paused = await runs.settled(runId, { intervalMs: 100, timeoutMs: 60_000 });
      expect(paused.status).toBe('paused');
      await runs.cancel(runId);
      expect((await runs.state(runId)).status).toBe('cancelled');
      const pending = paused.pending?.[0];
      await expect(
        runs.approve(
          runId,
          [{ callId: pending?.callId as string, approved: true, inputDigest: pending?.inputDigest as string }],
          POOL_SESSION,
        ),
      ).rejects.toBeInstanceOf(DbosRunStateError);
      await expect(runs.cancel(runId)).rejects.toBeInstanceOf(DbosRunStateError);
      const payments = await effects.query(
        "SELECT count(*)::int AS n FROM tool_effects WHERE run_id = $1 AND tool = 'send_payment'",
        [runId],
      );
      expect(payments.rows[0].n).toBe(0);
    }, 120_000);
  },
);
