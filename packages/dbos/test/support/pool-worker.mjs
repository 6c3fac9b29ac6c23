// One worker of the pool: registers the circuit, launches DBOS under the executor id it is given (a
// restarted worker takes the same id and recovers the runs it had in flight), and serves the queue until
// it is told to stop, or killed. With LEASE_MS, it also holds an executor lease (heartbeat HEARTBEAT_MS):
// the runs of a worker that stops renewing its lease are recovered by the live workers.
import { DBOS } from '@dbos-inc/dbos-sdk';
import { registerDbosCircuit, startExecutorLease } from '@toolcircuit/dbos';
import pg from 'pg';
import { poolCatalogue, poolModel } from './pool-circuit.mjs';

const {
  SYSTEM_DATABASE_URL,
  EXECUTOR_ID,
  QUEUE_NAME,
  NOTES_PER_TURN,
  TOOL_DELAY_MS,
  WORKER_CONCURRENCY,
  LEASE_MS,
  HEARTBEAT_MS,
} = process.env;
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
const lease =
  LEASE_MS === undefined
    ? undefined
    : await startExecutorLease({
        leaseMs: Number(LEASE_MS),
        heartbeatMs: Number(HEARTBEAT_MS ?? 250),
        onRecovered: (executorId, workflowIds) => process.send?.({ recovered: executorId, workflowIds }),
        onError: (error) => process.send?.({ leaseError: String(error) }),
      });
process.send?.({ ready: EXECUTOR_ID });

process.on('message', async (message) => {
  if (message === 'stop') {
    await lease?.stop();
    await DBOS.shutdown();
    await effects.end();
    process.exit(0);
  }
});
