/**
 * One worker process of the durable-run bench (`DURABLE_ENGINE=dbos|stores`). A DBOS worker serves the
 * queue until told to stop. A store worker has no queue to serve: it is handed its share of run ids and
 * plays each run (start, pause, the approval, resume) eight at a time, as an application without a
 * dispatcher would have to.
 */
import { DBOS } from '@dbos-inc/dbos-sdk';
import { createSession } from '@toolcircuit/core';
import { registerDbosCircuit } from '@toolcircuit/dbos';
import { createDurableRunner } from '@toolcircuit/stores';
import { openPostgresStore } from '@toolcircuit/stores/postgres';
import { approvalWorkloadModel } from '@toolcircuit/testing';
import pg from 'pg';
import { durableCatalogue, SESSION_DATA } from './durable-circuit.js';

const env = process.env;
const url = env.DURABLE_DATABASE_URL as string;
const worker = env.DURABLE_WORKER_ID as string;
const notes = Number(env.DURABLE_NOTES);
const concurrency = Number(env.DURABLE_CONCURRENCY);
const effects = new pg.Pool({ connectionString: url, max: 4 });
const send = (message: unknown) => process.send?.(message);

if (env.DURABLE_ENGINE === 'dbos') {
  const circuit = registerDbosCircuit({
    model: approvalWorkloadModel(notes),
    catalogue: durableCatalogue(effects, worker),
    queue: { name: 'bench-runs', workerConcurrency: concurrency, pollingIntervalMs: 50 },
  });
  DBOS.setConfig({
    name: 'toolcircuit-bench',
    systemDatabaseUrl: url,
    executorID: worker,
    applicationVersion: 'bench',
    logLevel: 'error',
    systemDatabasePoolSize: 10,
  });
  await DBOS.launch();
  await circuit.registerQueue();
  process.on('message', async () => {
    await DBOS.shutdown();
    await effects.end();
    process.exit(0);
  });
  send({ ready: true });
} else {
  const store = await openPostgresStore({ connectionString: url, maxConnections: 10 });
  const runner = createDurableRunner({
    store,
    model: approvalWorkloadModel(notes),
    catalogue: durableCatalogue(effects, worker),
    workerId: worker,
  });
  const session = createSession(SESSION_DATA);
  process.on('message', async (runIds: string[]) => {
    const queue = [...runIds];
    const play = async () => {
      for (let runId = queue.shift(); runId !== undefined; runId = queue.shift()) {
        const paused = await runner.start({ runId, session, messages: [{ role: 'user', content: runId }] });
        const decisions = (paused.paused?.pending ?? []).map((call) => ({
          callId: call.callId,
          approved: true,
          inputDigest: call.inputDigest,
        }));
        const done = await runner.resume(runId, decisions, { session });
        if (done.status !== 'completed') throw new Error(`run ${runId} ended ${done.status}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, play));
    await store.close();
    await effects.end();
    send({ done: runIds.length });
    process.exit(0);
  });
  send({ ready: true });
}
