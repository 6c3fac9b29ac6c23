// What the tests that run a pool of worker processes share: a fresh database with DBOS's tables and the
// tools' own table, a client, and worker processes (support/pool-worker.mjs on the built package) that are
// killed if a test leaves them running.
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
// @ts-expect-error: a plain-JS fixture shared with the worker processes
import { EFFECTS_DDL } from './pool-circuit.mjs';
import { freshDatabase } from './postgres.js';

export const support = (file: string) => fileURLToPath(new URL(`./${file}`, import.meta.url));
const built = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

export interface PoolHarness {
  readonly database: { readonly url: string; drop(): Promise<void> };
  /** On the same database: the tools' `tool_effects` table. */
  readonly effects: pg.Pool;
  readonly client: DBOSClient;
  /** Every message of every worker, with the executor id it came `from`. */
  readonly messages: Record<string, unknown>[];
  /** The processes started, to kill what a test leaves running. */
  readonly children: ChildProcess[];
  /** Forks a worker under `executorId` with the pool's environment and `env`; resolves once it is ready. */
  startWorker(executorId: string, env: Record<string, string>): Promise<ChildProcess>;
}

/** Registers the `beforeAll`/`afterAll` of a pool test on `server`; the harness is filled in by `beforeAll`. */
export function usePoolHarness(server: string | undefined, prefix: string): PoolHarness {
  const harness = {
    messages: [] as Record<string, unknown>[],
    children: [] as ChildProcess[],
  } as { -readonly [K in keyof PoolHarness]: PoolHarness[K] };

  harness.startWorker = async (executorId, env) => {
    const child = fork(support('pool-worker.mjs'), [], {
      env: { ...process.env, SYSTEM_DATABASE_URL: harness.database.url, EXECUTOR_ID: executorId, ...env },
      stdio: 'pipe',
    });
    harness.children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    await new Promise<void>((resolve, reject) => {
      child.on('message', (message: Record<string, unknown>) => {
        harness.messages.push({ ...message, from: executorId });
        if (message.ready !== undefined) resolve();
      });
      child.once('exit', (code) =>
        reject(new Error(`worker ${executorId} exited (${code}) before it was ready:\n${output}`)),
      );
    });
    return child;
  };

  beforeAll(async () => {
    if (server === undefined) return;
    if (!existsSync(built)) {
      throw new Error(
        'the worker processes import the built package: run `pnpm exec turbo run build --filter=@toolcircuit/dbos...`',
      );
    }
    harness.database = await freshDatabase(server, prefix);
    harness.effects = new pg.Pool({ connectionString: harness.database.url, max: 2 });
    await harness.effects.query(EFFECTS_DDL);
    // The system tables, before the first enqueue (workers would create them at launch).
    await DBOS.migrate(harness.database.url);
    harness.client = await DBOSClient.create({ systemDatabaseUrl: harness.database.url, systemDatabasePoolSize: 4 });
  }, 120_000);

  afterAll(async () => {
    for (const child of harness.children) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    await harness.client?.destroy();
    await harness.effects?.end();
    await harness.database?.drop();
  }, 60_000);

  return harness;
}

/**
 * Checks every call against the tools' own table: it ran exactly once, or it was reported unknown (then at
 * most once). Returns the calls that break this, and the calls reported unknown (`<runId>/<callId>`).
 */
export async function wrongExecutions(
  effects: pg.Pool,
  states: readonly { readonly runId: string; readonly unknownOutcomes: readonly string[] }[],
  callIds: readonly string[],
): Promise<{ wrong: string[]; unknown: Set<string> }> {
  const rows = await effects.query<{ run_id: string; call_id: string; n: number }>(
    'SELECT run_id, call_id, count(*)::int AS n FROM tool_effects GROUP BY run_id, call_id',
  );
  const executions = new Map(rows.rows.map((row) => [`${row.run_id}/${row.call_id}`, row.n]));
  const unknown = new Set(states.flatMap((state) => state.unknownOutcomes.map((callId) => `${state.runId}/${callId}`)));
  const wrong: string[] = [];
  for (const { runId } of states) {
    for (const callId of callIds) {
      const key = `${runId}/${callId}`;
      const count = executions.get(key) ?? 0;
      if (unknown.has(key) ? count > 1 : count !== 1) wrong.push(`${key}: ran ${count}×, unknown: ${unknown.has(key)}`);
    }
  }
  return { wrong, unknown };
}
