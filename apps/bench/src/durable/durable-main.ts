/**
 * `pnpm --filter @toolcircuit/bench bench:durable [--runs=N] [--engines=dbos,stores] [--postgres=URL] [--json=FILE]`
 *
 * Durable-run throughput against one PostgreSQL: the same runs (a turn of reversible notes and one
 * irreversible payment, the approval, a final turn; scripted model; every call inserts a row) played by
 * 1, 2 and 4 DBOS worker processes draining a queue, with approvals from this process, and by 1, 2 and 4
 * processes on the PostgreSQL store's durable runner, each given a share of the runs. Then the number of
 * calls per turn is varied at 2 workers. Each configuration gets a fresh database, dropped afterwards.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk';
import { createDbosRuns } from '@toolcircuit/dbos';
import pg from 'pg';
import { EFFECTS_DDL, SESSION_DATA } from './durable-circuit.js';

type Engine = 'dbos' | 'stores';
interface Row {
  readonly engine: Engine;
  readonly workers: number;
  readonly callsPerTurn: number;
  readonly runs: number;
  readonly seconds: number;
  readonly runsPerSecond: number;
  readonly callsPerSecond: number;
}

const argv = process.argv.slice(2);
const flag = (name: string) => argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const RUNS = Number(flag('runs') ?? 100);
const CONCURRENCY = 8;
const server = flag('postgres') ?? process.env.TOOLCIRCUIT_TEST_POSTGRES_URL ?? urlFromFile();
if (server === undefined) {
  throw new Error(
    'No PostgreSQL: pass --postgres=URL, set TOOLCIRCUIT_TEST_POSTGRES_URL or run `bash scripts/postgres.sh start`.',
  );
}
const workerScript = fileURLToPath(new URL('./durable-worker.js', import.meta.url));
const log = (line: string) => process.stderr.write(`${line}\n`);

function urlFromFile(): string | undefined {
  const file = fileURLToPath(new URL('../../../../.toolcircuit/postgres-url', import.meta.url));
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || undefined : undefined;
}

async function withDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const name = `toolcircuit_bench_${randomUUID().replaceAll('-', '').slice(0, 10)}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server as string);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    const dropper = new pg.Client({ connectionString: server });
    await dropper.connect();
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await dropper.end();
  }
}

const exits = new WeakMap<ChildProcess, Promise<unknown>>();

function spawnWorker(engine: Engine, url: string, id: string, notes: number): Promise<ChildProcess> {
  const child = fork(workerScript, [], {
    env: {
      ...process.env,
      DURABLE_ENGINE: engine,
      DURABLE_DATABASE_URL: url,
      DURABLE_WORKER_ID: id,
      DURABLE_NOTES: String(notes),
      DURABLE_CONCURRENCY: String(CONCURRENCY),
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  // Known from the start, so that a worker that already exited is not waited for forever.
  exits.set(child, new Promise((resolve) => child.once('exit', resolve)));
  // A message to a worker that is exiting fails asynchronously (EPIPE); its exit is what counts.
  child.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`${engine} worker ${id} exited (${code}) before it was ready`)));
  });
}

async function measure(engine: Engine, workers: number, notes: number): Promise<Row> {
  return withDatabase(async (url) => {
    const effects = new pg.Pool({ connectionString: url, max: 2 });
    await effects.query(EFFECTS_DDL);
    if (engine === 'dbos') await DBOS.migrate(url);
    const children = await Promise.all(
      Array.from({ length: workers }, (_, index) => spawnWorker(engine, url, `${engine}-${index + 1}`, notes)),
    );
    const runIds = Array.from({ length: RUNS }, (_, index) => `run-${index}`);
    const started = performance.now();
    if (engine === 'dbos') {
      await playOnDbos(url, runIds);
    } else {
      await Promise.all(
        children.map(
          (child, index) =>
            new Promise<void>((resolve, reject) => {
              child.once('message', () => resolve());
              child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`store worker exited ${code}`))));
              child.send(runIds.filter((_, run) => run % workers === index));
            }),
        ),
      );
    }
    const seconds = (performance.now() - started) / 1000;
    const calls = RUNS * (notes + 1);
    const counted = await effects.query('SELECT count(*)::int AS n FROM tool_effects');
    if (counted.rows[0].n !== calls)
      throw new Error(`${engine}: ${counted.rows[0].n} tool executions, expected ${calls}`);
    // A DBOS worker serves until told to stop; a store worker exits by itself once its share is played.
    for (const child of children) {
      if (engine === 'dbos') child.send('stop');
      await exits.get(child);
    }
    await effects.end();
    const row = {
      engine,
      workers,
      callsPerTurn: notes + 1,
      runs: RUNS,
      seconds,
      runsPerSecond: RUNS / seconds,
      callsPerSecond: calls / seconds,
    };
    log(
      `  ${engine} ×${workers}, ${notes + 1} calls/turn: ${row.runsPerSecond.toFixed(1)} runs/s, ${row.callsPerSecond.toFixed(1)} calls/s`,
    );
    return row;
  });
}

/** Enqueues every run, then approves each as it pauses, until all have completed. */
async function playOnDbos(url: string, runIds: readonly string[]): Promise<void> {
  const client = await DBOSClient.create({ systemDatabaseUrl: url, systemDatabasePoolSize: 6 });
  try {
    const runs = createDbosRuns({ client, queueName: 'bench-runs' });
    for (const runId of runIds)
      await runs.start({ runId, session: SESSION_DATA, messages: [{ role: 'user', content: runId }] });
    const open = new Set(runIds);
    while (open.size > 0) {
      for (const runId of [...open]) {
        const state = await runs.state(runId);
        if (state.status === 'paused') {
          const decisions = (state.pending ?? []).map((call) => ({
            callId: call.callId,
            approved: true,
            inputDigest: call.inputDigest,
          }));
          await runs.approve(runId, decisions, SESSION_DATA);
        } else if (state.status === 'completed') {
          open.delete(runId);
        } else if (state.status !== 'queued' && state.status !== 'running') {
          throw new Error(`run ${runId} ended ${state.status}: ${state.error ?? ''}`);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await client.destroy();
  }
}

// Dropping a configuration's database (WITH FORCE) ends any connection a library left idle on it; that
// connection's pool then reports "terminating connection due to administrator command" (57P01), which is
// the drop we asked for, not a failure of the measurement.
process.on('uncaughtException', (error: Error & { code?: string }) => {
  if (error.code === '57P01') return;
  throw error;
});

const rows: Row[] = [];
const loadBefore = loadavg()[0] ?? 0;
log(`durable runs: ${RUNS} runs per configuration, ${CONCURRENCY} runs in progress per worker`);
const engines = (flag('engines') ?? 'dbos,stores').split(',') as Engine[];
for (const engine of engines) {
  for (const workers of [1, 2, 4]) rows.push(await measure(engine, workers, 1));
  for (const notes of [3, 7]) rows.push(await measure(engine, 2, notes));
}
const loadAfter = loadavg()[0] ?? 0;

const table = [
  '| engine | workers | calls per turn | runs/s | calls/s |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (row) =>
      `| ${row.engine === 'dbos' ? 'DBOS queue' : 'PostgreSQL store runner'} | ${row.workers} | ${row.callsPerTurn} | ${row.runsPerSecond.toFixed(1)} | ${row.callsPerSecond.toFixed(1)} |`,
  ),
].join('\n');
process.stdout.write(
  `${table}\n\n${cpus().length} cores, load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after; ${RUNS} runs per row.\n`,
);
const json = flag('json');
if (json !== undefined) writeFileSync(json, `${JSON.stringify({ rows, loadBefore, loadAfter }, null, 2)}\n`);
