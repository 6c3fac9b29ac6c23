import { fork } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createDbosRuns, type DbosRunState } from '../../src/index.js';
// @ts-expect-error: a plain-JS fixture shared with the worker processes
import { POOL_SESSION } from '../support/pool-circuit.mjs';
import { support, usePoolHarness, wrongExecutions } from '../support/pool-harness.js';
import { POSTGRES_MISSING, serverUrl } from '../support/postgres.js';

const server = serverUrl();
const RUNS = 200;
const QUEUE = 'pool-runs';

interface ApproverReport {
  readonly approvals: readonly { runId: string; turn: number }[];
  readonly secondApprovalsRefused: number;
  readonly secondApprovalsUsed: number;
}

describe.skipIf(server === undefined)(
  `a pool of worker processes (${server === undefined ? POSTGRES_MISSING : 'PostgreSQL'})`,
  () => {
    const pool = usePoolHarness(server, 'toolcircuit_dbos_pool');

    const env = (extra: Record<string, string>) => ({
      ...process.env,
      SYSTEM_DATABASE_URL: pool.database.url,
      QUEUE_NAME: QUEUE,
      NOTES_PER_TURN: '1',
      TOOL_DELAY_MS: '40',
      WORKER_CONCURRENCY: '8',
      ...extra,
    });

    const startWorker = (executorId: string) => pool.startWorker(executorId, env({}));

    it(`drains ${RUNS} runs over 3 workers, one SIGKILLed mid-run, approvals from a fourth process: every run completes, every call runs once or is reported unknown, every approval is used once`, async () => {
      const started = Date.now();
      const { client, effects } = pool;
      const runs = createDbosRuns({ client, queueName: QUEUE });
      const runIds = Array.from({ length: RUNS }, (_, index) => `run-${String(index).padStart(3, '0')}`);
      for (const runId of runIds) {
        await runs.start({ runId, session: POOL_SESSION, messages: [{ role: 'user', content: runId }] });
      }

      const workers = await Promise.all(['worker-1', 'worker-2', 'worker-3'].map((id) => startWorker(id)));
      const approver = fork(support('pool-approver.mjs'), [], {
        env: env({ RUN_IDS: JSON.stringify(runIds) }),
        stdio: 'pipe',
      });
      pool.children.push(approver);
      let approverStderr = '';
      approver.stdout?.resume();
      approver.stderr?.on('data', (chunk) => (approverStderr += chunk));
      const report = new Promise<ApproverReport>((resolve, reject) => {
        approver.once('message', (message) => resolve(message as ApproverReport));
        approver.once('exit', (code) => reject(new Error(`the approver exited (${code}) without a report`)));
      });

      // Kill worker-1 while it has runs in flight and after its tools have had time to run.
      let inFlight: string[] = [];
      for (;;) {
        const pending = await client.listWorkflows({ status: 'PENDING' });
        inFlight = pending.filter((status) => status.executorId === 'worker-1').map((status) => status.workflowID);
        const done = await effects.query("SELECT count(*)::int AS n FROM tool_effects WHERE worker = 'worker-1'");
        if (inFlight.length >= 2 && done.rows[0].n >= 20) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      workers[0]?.kill('SIGKILL');
      await new Promise((resolve) => workers[0]?.once('exit', resolve));
      // Its supervisor brings it back under the same executor id: DBOS recovers the runs it had in flight.
      const replacement = await startWorker('worker-1');

      const { approvals, secondApprovalsRefused, secondApprovalsUsed } = await report;
      // Nothing on the terminal from the approvals process: no pg deprecation from DBOS's pool (see freshDatabase).
      expect(approverStderr).not.toContain('DeprecationWarning');
      const wallMs = Date.now() - started;

      const states: DbosRunState[] = [];
      for (const runId of runIds) states.push(await runs.state(runId));
      expect(
        states
          .filter((state) => state.status !== 'completed')
          .map((state) => `${state.runId}: ${state.status} ${state.error ?? ''}`),
      ).toEqual([]);

      // Every approval used once: one per run, each starting exactly one continuation; second tries refused.
      expect(approvals).toHaveLength(RUNS);
      expect(new Set(approvals.map((approval) => approval.runId)).size).toBe(RUNS);
      expect(secondApprovalsUsed).toBe(0);
      expect(secondApprovalsRefused).toBe(RUNS);
      const segments = await client.listWorkflows({ workflowName: 'toolcircuit.run' });
      expect(segments.filter((status) => status.workflowID.includes('/approved-turn-')).length).toBe(RUNS);

      // Every call ran exactly once, as the tools' own table shows, or was reported unknown (then at most once).
      const { wrong, unknown } = await wrongExecutions(effects, states, ['note_1', 'payment']);
      expect(wrong).toEqual([]);
      // Unknown outcomes can only come from the kill: calls of the runs worker-1 had in flight.
      const runsInFlight = new Set(inFlight.map((id) => id.split('/')[0]));
      expect([...unknown].filter((key) => !runsInFlight.has(key.split('/')[0]))).toEqual([]);
      // The runs worker-1 had in flight were finished by its replacement.
      const recovered = await client.listWorkflows({ workflowIDs: inFlight });
      expect(recovered.every((status) => status.status === 'SUCCESS')).toBe(true);

      console.info(
        `worker pool: ${RUNS} runs in ${(wallMs / 1000).toFixed(1)} s wall, ${inFlight.length} in flight on the killed worker, ` +
          `${unknown.size} call(s) reported unknown`,
      );
      for (const child of [...workers.slice(1), replacement]) {
        child.send('stop');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }, 240_000);
  },
);
