// One worker of the pool: registers the circuit, launches DBOS under the executor id it is given (a
// restarted worker takes the same id and recovers the runs it had in flight), and serves the queue until
// it is told to stop, or killed.
import { DBOS } from '@dbos-inc/dbos-sdk';
import { registerDbosCircuit } from '@toolcircuit/dbos';
import pg from 'pg';
import { poolCatalogue, poolModel } from './pool-circuit.mjs';

const { SYSTEM_DATABASE_URL, EXECUTOR_ID, QUEUE_NAME, NOTES_PER_TURN, TOOL_DELAY_MS, WORKER_CONCURRENCY } = process.env;
const effects = new pg.Pool({ connectionString: SYSTEM_DATABASE_URL, max: 2 });

const circuit = registerDbosCircuit({
  model: poolModel(Number(NOTES_PER_TURN ?? 1)),
  catalogue: poolCatalogue(effects, EXECUTOR_ID, Number(TOOL_DELAY_MS ?? 0)),
  queue: {
    name: QUEUE_NAME,
    workerConcurrency: Number(WORKER_CONCURRENCY ?? 8),
    pollingIntervalMs: 100,
  },
});
DBOS.setConfig({
  name: 'toolcircuit-pool',
  systemDatabaseUrl: SYSTEM_DATABASE_URL,
  executorID: EXECUTOR_ID,
  applicationVersion: 'pool-test',
  logLevel: 'error',
  systemDatabasePoolSize: 6,
});
await DBOS.launch();
await circuit.registerQueue();
process.send?.({ ready: EXECUTOR_ID });

process.on('message', async (message) => {
  if (message === 'stop') {
    await DBOS.shutdown();
    await effects.end();
    process.exit(0);
  }
});
