import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent as HttpAgent } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchPostgres } from '../durable/bench-postgres.js';
import { dropSchema } from '../durable/floor-database.js';
import { median } from '../measure/stats.js';
import { type Clients, type HttpBatch, playOverHttp } from './server-client.js';
import type { BatchReport, ChildReply, ChildRequest } from './server-protocol.js';

/** One backend's figures: every timed batch of `runs` concurrent runs, medians over the rounds. */
export interface ServerFigures {
  readonly backend: 'SQLite' | 'PostgreSQL' | 'memory';
  readonly runs: number;
  readonly rounds: number;
  /** Runs not completed (an HTTP answer other than paused then completed, or the store says otherwise). */
  readonly lost: number;
  /** Runs whose irreversible tool ran more than once. */
  readonly twice: number;
  /** How many runs `lost` and `twice` were counted over: every timed batch, the runner alone's too. */
  readonly runsChecked: number;
  /** Runs per second over HTTP, first start to last answer (median over rounds). */
  readonly runsPerSecond: number;
  /** The peer's, the same runs through the durable runner directly. */
  readonly peerRunsPerSecond: number;
  /** Decision sent by the client → the tool started in the server process (ms, over every round's runs). */
  readonly decisionToToolMs: { readonly p50: number; readonly p95: number; readonly max: number };
  /** The same runs all paused, then decided one after another (each decision alone in the server). */
  readonly oneAtATimeMs: { readonly p50: number; readonly p95: number };
  /** The peer's: `resume` called → the tool started. */
  readonly peerDecisionToToolMs: { readonly p50: number; readonly p95: number };
  /** The server process's CPU per run over HTTP, and the peer's, ms (medians over rounds). */
  readonly cpuMsPerRun: { readonly server: number; readonly runner: number };
  /** What the server adds per run: (server − runner) CPU of each round / runs, median; and each round's. */
  readonly addedCpuMsPerRun: number;
  readonly addedCpuRounds: readonly number[];
  /** The server process's peak RSS after warm-up and the first batch over HTTP (before any timed peer batch). */
  readonly peakRssBytes: number;
}

export interface ServerReport {
  readonly figures: readonly ServerFigures[];
  /** Why PostgreSQL was not measured, when it was not. */
  readonly postgresMissing?: string;
  readonly loadBefore: number;
  readonly loadAfter: number;
}

export interface ServerBenchOptions {
  readonly runs: number;
  readonly rounds: number;
  readonly repoRoot: string;
  readonly log: (line: string) => void;
}

const childScript = fileURLToPath(new URL('./server-child.js', import.meta.url));

/** The server process, and a way to ask it something and wait for its answer. */
async function startChild(env: Record<string, string>) {
  const child: ChildProcess = fork(childScript, [], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const replies: ((reply: ChildReply) => void)[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.on('message', (reply: ChildReply) => replies.shift()?.(reply));
  const next = () =>
    new Promise<ChildReply>((resolve, reject) => {
      replies.push(resolve);
      void exited.then((code) => reject(new Error(`the server process exited (${code})`)));
    });
  const ready = await next();
  if (ready.type !== 'ready') throw new Error(`the server process did not start: ${JSON.stringify(ready)}`);
  const ask = async (request: ChildRequest): Promise<ChildReply> => {
    const reply = next();
    child.send(request);
    const answer = await reply;
    if (answer.type === 'error') throw new Error(`the server process failed: ${answer.message}`);
    return answer;
  };
  const batch = async (request: ChildRequest): Promise<BatchReport> => {
    const answer = await ask(request);
    if (answer.type !== 'batch') throw new Error(`expected a batch report, got ${answer.type}`);
    return answer.report;
  };
  return { port: ready.port, ask, batch, exited };
}

/** Runs of a batch that did not complete: answered otherwise over HTTP, or not completed in the store. */
function lostOf(played: HttpBatch, report: BatchReport): number {
  return new Set([...played.failed, ...report.lost]).size;
}

/** Decision sent → tool started, per run of an HTTP batch (the client's clock and the server's, one machine). */
function latenciesOf(played: HttpBatch, report: BatchReport): number[] {
  const latencies: number[] = [];
  for (const runId of played.runIds) {
    const decided = played.decidedAt.get(runId);
    const toolStarted = report.toolStartedAt[runId];
    if (decided !== undefined && toolStarted !== undefined && Number.isFinite(toolStarted)) {
      latencies.push(toolStarted - decided);
    }
  }
  return latencies;
}

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

export async function measureServerBackend(
  backend: ServerFigures['backend'],
  env: Record<string, string>,
  options: ServerBenchOptions,
): Promise<ServerFigures> {
  const { runs, rounds, log } = options;
  const child = await startChild(env);
  const clients: Clients = { starter: new HttpAgent({ keepAlive: true }), decider: new HttpAgent({ keepAlive: true }) };
  try {
    let serial = 0;
    const directIds = () => Array.from({ length: runs }, (_, index) => `direct-${serial}-${index}`);
    const overHttp = async (decide?: 'one-at-a-time') => {
      serial += 1;
      await child.ask({ type: 'http-begin' });
      const played = await playOverHttp(clients, child.port, runs, `batch ${serial}`, decide);
      const report = await child.batch({ type: 'http-end', runIds: played.runIds });
      return { played, report };
    };
    const direct = async () => {
      serial += 1;
      const started = performance.now();
      const report = await child.batch({ type: 'direct', runIds: directIds() });
      return { report, seconds: (performance.now() - started) / 1000 };
    };
    // Warm-up, untimed: JIT, prepared statements, connections, both paths.
    await overHttp();
    await direct();

    let lost = 0;
    let twice = 0;
    let peakRssBytes = 0;
    const latencies: number[] = [];
    const peerLatencies: number[] = [];
    const throughput: number[] = [];
    const peerThroughput: number[] = [];
    const serverCpu: number[] = [];
    const runnerCpu: number[] = [];
    const added: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // Alternating which goes first, so that neither always plays on the store the other just grew.
      const httpFirst = round % 2 === 0;
      const first = httpFirst ? await overHttp() : await direct();
      const second = httpFirst ? await direct() : await overHttp();
      const http = (httpFirst ? first : second) as Awaited<ReturnType<typeof overHttp>>;
      const peer = (httpFirst ? second : first) as Awaited<ReturnType<typeof direct>>;
      if (round === 0) peakRssBytes = http.report.maxRssBytes;
      lost += lostOf(http.played, http.report) + peer.report.lost.length;
      twice += http.report.twice + peer.report.twice;
      latencies.push(...latenciesOf(http.played, http.report));
      peerLatencies.push(...peer.report.latenciesMs);
      throughput.push(runs / http.played.seconds);
      peerThroughput.push(runs / peer.seconds);
      serverCpu.push(http.report.cpuMs / runs);
      runnerCpu.push(peer.report.cpuMs / runs);
      added.push((http.report.cpuMs - peer.report.cpuMs) / runs);
      log(
        `  ${backend} round ${round + 1}: ${(runs / http.played.seconds).toFixed(0)} runs/s over HTTP, CPU ` +
          `${(http.report.cpuMs / runs).toFixed(2)} vs ${(peer.report.cpuMs / runs).toFixed(2)} ms per run ` +
          `(runner alone); decision → tool p95 ${percentile(latencies.slice(-runs), 95).toFixed(1)} ms`,
      );
    }
    // The same number of runs all paused at once, then decided one at a time: the latency a decision meets
    // when it does not queue behind 199 others (beside the goal's figure, not instead of it).
    const sequential = await overHttp('one-at-a-time');
    const alone = latenciesOf(sequential.played, sequential.report);
    lost += lostOf(sequential.played, sequential.report);
    twice += sequential.report.twice;
    return {
      backend,
      runs,
      rounds,
      oneAtATimeMs: { p50: percentile(alone, 50), p95: percentile(alone, 95) },
      lost,
      twice,
      runsChecked: runs * (2 * rounds + 1),
      runsPerSecond: median(throughput),
      peerRunsPerSecond: median(peerThroughput),
      decisionToToolMs: {
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        max: Math.max(...latencies),
      },
      peerDecisionToToolMs: { p50: percentile(peerLatencies, 50), p95: percentile(peerLatencies, 95) },
      cpuMsPerRun: { server: median(serverCpu), runner: median(runnerCpu) },
      addedCpuMsPerRun: median(added),
      addedCpuRounds: added,
      peakRssBytes,
    };
  } finally {
    clients.starter.destroy();
    clients.decider.destroy();
    await child.ask({ type: 'close' }).catch(() => undefined);
    await child.exited;
  }
}

/**
 * `runs` concurrent runs on the run server over loopback HTTP, each pausing on one irreversible call that
 * a separate client approves over HTTP, against the same runs through the durable runner alone in the
 * same server process and store; on SQLite (a file in a temporary folder) and on PostgreSQL when one is
 * available.
 */
export async function measureServer(options: ServerBenchOptions): Promise<ServerReport> {
  const loadBefore = loadavg()[0] ?? 0;
  const figures: ServerFigures[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'toolcircuit-bench-server-'));
  try {
    options.log(`  SQLite (a file in ${dir}), ${options.runs} concurrent runs × ${options.rounds} rounds`);
    figures.push(await measureServerBackend('SQLite', { BENCH_SERVER_STORE: `sqlite:${dir}` }, options));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const postgres = benchPostgres(options.repoRoot);
  let postgresMissing: string | undefined;
  if (postgres.url === undefined) {
    postgresMissing = postgres.reason;
  } else {
    const schema = `bench_server_${process.pid}`;
    try {
      options.log('  PostgreSQL (127.0.0.1)');
      figures.push(
        await measureServerBackend(
          'PostgreSQL',
          { BENCH_SERVER_STORE: `postgres:${postgres.url}`, BENCH_SERVER_SCHEMA: schema },
          options,
        ),
      );
    } finally {
      await dropSchema(postgres.url, schema);
      postgres.stop();
    }
  }
  return {
    figures,
    ...(postgresMissing === undefined ? {} : { postgresMissing }),
    loadBefore,
    loadAfter: loadavg()[0] ?? 0,
  };
}
