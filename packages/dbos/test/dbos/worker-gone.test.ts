// A worker that never comes back: three worker processes hold executor leases; one is SIGKILLed for good
// while it has runs in flight and other runs wait paused for their approval. Nobody restarts it: the live
// workers find its lease ended, hand its pending workflows back to the queue with DBOS's own recovery, and
// finish them. Every run completes, every approval is used, and every tool call ran once (or, when the dead
// worker had started it, is reported unknown and ran at most once).
import { describe, expect, it } from 'vitest';
import { createDbosRuns, type DbosRunState } from '../../src/index.js';
// @ts-expect-error: a plain-JS fixture shared with the worker processes
import { POOL_SESSION } from '../support/pool-circuit.mjs';
import { usePoolHarness, wrongExecutions } from '../support/pool-harness.js';
import { POSTGRES_MISSING, serverUrl } from '../support/postgres.js';

const server = serverUrl();
const RUNS = 24;
const QUEUE = 'gone-runs';
/** Each worker's lease, renewed every 250 ms; the sweep looks as often. */
const LEASE_MS = 2000;
/** The dead worker's runs are finished within this of the kill, or the test fails. */
const RECOVERY_BOUND_MS = 90_000;

/** Polls a condition (no timing assertion: it only waits, and fails after a generous bound). */
async function until(condition: () => Promise<boolean>, what: string, boundMs = RECOVERY_BOUND_MS): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.skipIf(server === undefined)(
  `a worker that never comes back (${server === undefined ? POSTGRES_MISSING : 'DBOS on PostgreSQL'})`,
  () => {
    const pool = usePoolHarness(server, 'toolcircuit_dbos_gone');
    const startWorker = (executorId: string) =>
      pool.startWorker(executorId, {
        QUEUE_NAME: QUEUE,
        NOTES_PER_TURN: '2',
        // worker-1's calls take long, so that it surely dies with calls in flight, however loaded the machine.
        TOOL_DELAY_MS: executorId === 'worker-1' ? '3000' : '300',
        WORKER_CONCURRENCY: '4',
        LEASE_MS: String(LEASE_MS),
        HEARTBEAT_MS: '250',
      });

    it(`${RUNS} runs over 3 workers, one SIGKILLed for good with runs in flight and runs paused: the live workers recover its runs, every run completes, nothing runs twice`, async () => {
      const { client, effects, messages } = pool;
      const runs = createDbosRuns({ client, queueName: QUEUE });
      const runIds = Array.from({ length: RUNS }, (_, index) => `gone-${String(index).padStart(2, '0')}`);
      for (const runId of runIds) {
        await runs.start({ runId, session: POOL_SESSION, messages: [{ role: 'user', content: runId }] });
      }
      const workers = await Promise.all(['worker-1', 'worker-2', 'worker-3'].map((id) => startWorker(id)));

      // Kill worker-1 while it has runs in flight, some of its calls having run, and some runs already paused.
      let inFlight: string[] = [];
      await until(async () => {
        const pending = await client.listWorkflows({ status: 'PENDING' });
        inFlight = pending.filter((status) => status.executorId === 'worker-1').map((status) => status.workflowID);
        const done = await effects.query("SELECT count(*)::int AS n FROM tool_effects WHERE worker = 'worker-1'");
        const paused = await client.listWorkflows({ status: 'SUCCESS', queueName: QUEUE });
        return inFlight.length >= 2 && done.rows[0].n >= 2 && paused.length >= 1;
      }, 'worker-1 with runs in flight and runs paused');
      workers[0]?.kill('SIGKILL');
      const killedAt = Date.now();
      await new Promise((resolve) => workers[0]?.once('exit', resolve));

      // Nobody restarts worker-1. Its in-flight workflows finish on the live workers once its lease ends.
      let recoveredMs = 0;
      await until(async () => {
        const statuses = await client.listWorkflows({ workflowIDs: inFlight });
        const finished = statuses.every((status) => status.status === 'SUCCESS');
        if (finished) recoveredMs = Date.now() - killedAt;
        return finished;
      }, 'the dead worker’s runs finished on the live workers');

      // The approvals, from this process, for every paused run (those paused before the kill included).
      const open = new Set(runIds);
      await until(async () => {
        for (const runId of [...open]) {
          const state = await runs.state(runId);
          if (state.status === 'paused') {
            const decisions = (state.pending ?? []).map((call) => ({
              callId: call.callId,
              approved: true,
              inputDigest: call.inputDigest,
            }));
            await runs.approve(runId, decisions, POOL_SESSION);
          } else if (state.status !== 'queued' && state.status !== 'running') {
            open.delete(runId);
          }
        }
        return open.size === 0;
      }, 'every run settled');

      const states: DbosRunState[] = [];
      for (const runId of runIds) states.push(await runs.state(runId));
      expect(
        states
          .filter((state) => state.status !== 'completed')
          .map((state) => `${state.runId}: ${state.status} ${state.error ?? ''}`),
      ).toEqual([]);

      // The dead worker's workflows were recovered by the live ones (each once), and finished there.
      const recovered = messages.filter((message) => message.recovered === 'worker-1');
      expect(recovered.flatMap((message) => message.workflowIds as string[]).sort()).toEqual([...inFlight].sort());
      expect(messages.filter((message) => message.leaseError !== undefined)).toEqual([]);
      const finishedOn = await client.listWorkflows({ workflowIDs: inFlight });
      expect(finishedOn.map((status) => status.executorId).filter((id) => id === 'worker-1')).toEqual([]);

      // Every call ran exactly once, as the tools' own table shows, or was reported unknown (then at most once).
      const { wrong, unknown } = await wrongExecutions(effects, states, ['note_1', 'note_2', 'payment']);
      expect(wrong).toEqual([]);
      const runsInFlight = new Set(inFlight.map((id) => id.split('/')[0]));
      expect([...unknown].filter((key) => !runsInFlight.has(key.split('/')[0]))).toEqual([]);

      console.info(
        `worker gone (DBOS): ${inFlight.length} workflow(s) in flight on the killed worker, finished on the live ` +
          `workers ${(recoveredMs / 1000).toFixed(2)} s after the kill (lease ${LEASE_MS / 1000} s, heartbeat ` +
          `0.25 s), ${unknown.size} call(s) reported unknown`,
      );
      for (const child of workers.slice(1)) {
        child.send('stop');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }, 240_000);
  },
);
