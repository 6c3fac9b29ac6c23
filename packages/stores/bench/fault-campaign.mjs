#!/usr/bin/env node
// The fault campaign: durable runs on several worker processes while the database misbehaves, then what
// came of it. Outside the unit tests (they check each fault once; this counts over many). Needs root: it
// starts its own PostgreSQL server (fsync on) and kills it, and for SQLite mounts a 160 MB tmpfs (a real
// full disk) and makes the file immutable (chattr +i, which stops root too). Run the BUILT packages:
//   pnpm build && pnpm --filter @toolcircuit/stores faults:campaign [--pg-seconds 180] [--sqlite-seconds 90]
//     [--workers 4] [--concurrency 4] [--out results.json] [--keep (the logs)]
//
// PostgreSQL (workers go through a TCP proxy, so that the network can stall): the server SIGKILLed with
// every backend, stopped "immediate", the stores' backends terminated, the journal's head row locked for
// 3-12 s (past the 5 s statement time-out), the network stalled for 5-10 s; each followed by a calm
// stretch; once, halfway, the server down for 40 s, longer than the writes' 30 s retry budget. SQLite
// (workers share one file): another process holding the write lock for 3-15 s, the file and its WAL made
// immutable for 3-6 s, the disk filled for 3-6 s; once, the lock held 40 s. Then the workers are told to drain:
// they start nothing new and recover their own failed runs (without force). Counted: worker crashes, runs
// not settled (left resuming or interrupted) after the database is back and how long settling took, calls
// whose result was known (the tool had returned) but that ended "outcome unknown", the share of the errors
// the application saw that were typed (and named the store), calls that ran twice, runs reported finished
// that the database does not hold finished, and whether the keyed journal verifies.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPostgresJournal } from '@toolcircuit/stores/postgres';
import { openSqliteJournal, openSqliteStore } from '@toolcircuit/stores/sqlite';
import Database from 'better-sqlite3';
import pg from 'pg';
import { startTcpProxy } from '../test/support/tcp-proxy.mjs';
import { postgresBinDir, startThrowawayPostgres } from '../test/support/throwaway-postgres.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const CLI = join(here, '../../../apps/cli/dist/bin.js');
const LOCK_HOLDER = join(here, '../test/faults/fixtures/hold-sqlite-lock.mjs');

function flag(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : process.argv[index + 1];
}
const PG_SECONDS = Number(flag('pg-seconds', '180'));
const SQLITE_SECONDS = Number(flag('sqlite-seconds', '90'));
const WORKERS = Number(flag('workers', '4'));
const CONCURRENCY = Number(flag('concurrency', '4'));
const OUT = flag('out', undefined);
const KEEP = process.argv.includes('--keep');
const WRITE_RETRY_MS = 30_000;
const DRAIN_MS = 120_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (low, high) => low + Math.random() * (high - low);
const say = (text) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${text}\n`);

if (process.getuid?.() !== 0) {
  console.error('fault-campaign: run it as root (it kills its own PostgreSQL server, mounts a tmpfs, uses chattr).');
  process.exit(2);
}
if (!existsSync(join(here, '../dist/index.js')) || !existsSync(CLI)) {
  console.error('fault-campaign: build first (pnpm build): the workers run the built packages.');
  process.exit(2);
}

/** Workers on `base` config; one that dies is counted and replaced. */
function startWorkers(base, count) {
  const state = { crashes: [], exited: 0, children: new Set(), draining: false };
  const launch = (index) => {
    const child = spawn(
      process.execPath,
      [join(here, 'fault-worker.mjs'), JSON.stringify({ ...base, worker: index })],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk.toString();
    });
    state.children.add(child);
    child.on('exit', (code, signal) => {
      state.children.delete(child);
      if (code === 0) {
        state.exited += 1;
        return;
      }
      state.crashes.push({ worker: index, code, signal, stderr: stderr.slice(-2000) });
      say(`worker ${index} died (${code ?? signal}); starting another`);
      if (!state.draining) launch(`${index}r${state.crashes.length}`);
    });
  };
  for (let index = 0; index < count; index += 1) launch(index);
  return {
    state,
    drain: async () => {
      state.draining = true;
      writeFileSync(base.drain, '');
      const deadline = Date.now() + DRAIN_MS + 30_000;
      while (state.children.size > 0 && Date.now() < deadline) await sleep(200);
      for (const child of state.children) child.kill('SIGKILL');
    },
  };
}

/** Runs `faults` (name → async action) one after another, with calm between, for `seconds`. */
/**
 * Runs `faults` (name → async action) in turn, with calm between, for `seconds`; `once` (name → action)
 * runs a single time, halfway: an outage longer than the writes' retry budget.
 */
async function faultLoop(seconds, faults, once) {
  const log = [];
  const half = Date.now() + (seconds * 1000) / 2;
  const end = Date.now() + seconds * 1000;
  const names = Object.keys(faults);
  let index = 0;
  let onceDone = false;
  while (Date.now() < end) {
    await sleep(between(2000, 5000));
    const single = !onceDone && Date.now() >= half;
    onceDone ||= single;
    const name = single ? Object.keys(once)[0] : names[index % names.length];
    if (!single) index += 1;
    faults[name] ??= once[name];
    const started = Date.now();
    const detail = await faults[name]();
    log.push({ fault: name, at: started, ms: Date.now() - started, ...(detail ?? {}) });
    say(`fault ${name}: ${Date.now() - started} ms ${detail === undefined ? '' : JSON.stringify(detail)}`);
  }
  return log;
}

function lines(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

/**
 * The figures, from the workers' logs, the tool's effects log and the store's own rows (`runs`, `calls`:
 * the run and call rows as the database holds them after the campaign).
 */
async function figures({ outcomes, effects, runs, calls, journal, workers, settledAfterMs, faults }) {
  const verification = await journal.verifyJournal().finally(() => journal.close());
  const log = lines(outcomes);
  const effectLines = lines(effects);
  const started = new Map();
  const known = new Map(); // key → when the tool had its result
  for (const { key, phase, t } of effectLines) {
    if (phase === 'start') started.set(key, (started.get(key) ?? 0) + 1);
    else known.set(key, t);
  }
  // A result known when the database then stayed away for longer than the writes' retry budget cannot be
  // recorded: it is reported "outcome unknown", as promised. That is a result known from shortly before the
  // outage (its write in flight) until the budget before the database was back (5 s either way for the
  // connect time-out and the pauses between tries). Any other known result reported unknown is a failure.
  const beyondBudget = faults.filter(({ ms }) => ms > WRITE_RETRY_MS);
  const duringLongOutage = (t) =>
    beyondBudget.some(({ at, ms }) => t >= at - 5000 && t <= at + ms - WRITE_RETRY_MS + 5000);
  const runStatus = new Map(runs.map((run) => [run.run_id, run.status]));
  const errors = log.filter((record) => record.type === 'error');
  const finishedByWorkers = log.filter((record) => record.type === 'run' && record.status === 'completed');
  const lost = finishedByWorkers.filter((record) => runStatus.get(record.runId) !== 'completed');
  const unknownCalls = calls.filter((call) => call.state === 'unknown');
  const byCode = {};
  for (const error of errors) {
    const code = error.typed ? error.code : `untyped ${error.name}: ${error.message.slice(0, 80)}`;
    byCode[code] = (byCode[code] ?? 0) + 1;
  }
  const statuses = countBy(runs.map((run) => run.status));
  return {
    faults: countBy(faults.map(({ fault }) => fault)),
    runs: runs.length,
    runStatuses: statuses,
    calls: started.size,
    workerCrashes: workers.crashes.length,
    crashDetails: workers.crashes,
    runsNotSettled: runs.filter((run) => run.status === 'resuming' || run.status === 'interrupted').length,
    settledAfterMs,
    unknownOutcomes: unknownCalls.length,
    knownResultsReportedUnknown: unknownCalls.filter((call) => {
      const t = known.get(`${call.run_id}/${call.call_id}`);
      return t !== undefined && !duringLongOutage(t);
    }).length,
    knownResultsReportedUnknownDuringTheLongOutage: unknownCalls.filter((call) => {
      const t = known.get(`${call.run_id}/${call.call_id}`);
      return t !== undefined && duringLongOutage(t);
    }).length,
    errorsSeen: errors.length,
    typedErrors: errors.filter((error) => error.typed).length,
    // Store errors, and journal writes that failed because of the store: do they name the store?
    storeErrors: errors.filter(aboutTheStore).length,
    storeErrorsNamingTheStore: errors.filter((error) => aboutTheStore(error) && error.namesStore).length,
    errorsByCode: byCode,
    doubleRuns: [...started.values()].filter((count) => count > 1).length,
    runsRecoveredByTheirWorker: log.filter((record) => record.type === 'run' && record.op === 'recover').length,
    ...afterLongOutage(log, beyondBudget, runStatus),
    startsRefused: errors.filter((error) => error.op === 'start').length,
    finishedRunsChecked: finishedByWorkers.length,
    lostCommits: lost.length,
    journalVerified: verification.ok ? `ok (${verification.entries} entries, keyed)` : verification,
    eventLoopStallMs: stalls(log, faults),
  };
}

/**
 * Event-loop stalls: each worker logs its longest stall of every second. By window (inside a fault of each
 * kind, or outside faults): the longest, and the 99th and 50th percentiles of those per-second longest.
 */
function stalls(log, faults) {
  const during = (t) => faults.find(({ at, ms }) => t >= at && t <= at + ms + 1000)?.fault ?? 'no fault';
  const byWindow = {};
  for (const { t, maxMs } of log.filter((record) => record.type === 'loop')) {
    const window = during(t);
    byWindow[window] ??= [];
    byWindow[window].push(maxMs);
  }
  const result = {};
  for (const [window, values] of Object.entries(byWindow)) {
    values.sort((a, b) => a - b);
    const at = (q) => values[Math.min(values.length - 1, Math.floor(q * values.length))];
    result[window] = { max: values.at(-1), p99: at(0.99), p50: at(0.5), seconds: values.length };
  }
  return result;
}

/**
 * The runs that failed during the outage longer than the retry budget: how many, and how long after the
 * database came back the last of them was recovered by its own worker.
 */
function afterLongOutage(log, beyondBudget, runStatus) {
  const [outage] = beyondBudget;
  if (outage === undefined) return {};
  const back = outage.at + outage.ms;
  // A run failing in the outage reports it once the store has tried for its budget (and marked it interrupted).
  const reported = back + WRITE_RETRY_MS + 10_000;
  const failed = new Set(
    log
      .filter(
        (record) => record.type === 'error' && record.op === 'start' && record.t >= outage.at && record.t <= reported,
      )
      .map((record) => record.runId)
      // Those that exist: a start whose first write failed created nothing to recover.
      .filter((runId) => runStatus.has(runId)),
  );
  const recovered = log.filter(
    (record) => record.type === 'run' && record.op === 'recover' && failed.has(record.runId),
  );
  return {
    runsFailedInTheLongOutage: failed.size,
    recoveredAfterItMs: recovered.length === 0 ? undefined : Math.max(...recovered.map((record) => record.t)) - back,
  };
}

function aboutTheStore(error) {
  return error.kind === 'store' || error.code === 'journal_write_failed';
}

function countBy(values) {
  const counts = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/** Waits until no run is resuming or interrupted (or the time is up); returns how long that took. */
async function settled(countUnsettled, since) {
  for (;;) {
    const open = await countUnsettled().catch(() => Number.POSITIVE_INFINITY);
    if (open === 0) return Date.now() - since;
    if (Date.now() - since > DRAIN_MS + 30_000) return undefined;
    await sleep(250);
  }
}

async function postgresCampaign(work) {
  const bin = postgresBinDir();
  if (bin === undefined) throw new Error('no PostgreSQL server programs: run `bash scripts/postgres.sh start` once');
  const server = await startThrowawayPostgres(bin, { fsync: true });
  const proxy = await startTcpProxy(server.port);
  const key = randomBytes(32).toString('hex');
  const base = {
    store: 'postgres',
    url: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`,
    schema: 'campaign',
    key,
    effects: join(work, 'pg-effects.jsonl'),
    outcomes: join(work, 'pg-outcomes.jsonl'),
    drain: join(work, 'pg-drain'),
    concurrency: CONCURRENCY,
    toolMs: 40,
    timeouts: { statementMs: 5000, connectMs: 3000 },
    writeRetryMs: WRITE_RETRY_MS,
    drainMs: DRAIN_MS,
  };
  const admin = async (sql, params = []) => {
    const client = new pg.Client({ connectionString: server.url, application_name: 'campaign-admin' });
    client.on('error', () => {});
    await client.connect();
    try {
      return await client.query(sql, params);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  try {
    say(`PostgreSQL: ${WORKERS} workers × ${CONCURRENCY} runs for ${PG_SECONDS} s of faults`);
    const workers = startWorkers(base, WORKERS);
    const faults = await faultLoop(
      PG_SECONDS,
      {
        kill: async () => {
          await server.kill();
          const down = between(500, 3000);
          await sleep(down);
          await server.start();
          return { downMs: Math.round(down) };
        },
        terminate: async () => {
          const { rowCount } = await admin(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE backend_type = 'client backend' AND application_name <> 'campaign-admin'",
          );
          return { terminated: rowCount };
        },
        lock: async () => {
          const client = new pg.Client({ connectionString: server.url, application_name: 'campaign-admin' });
          client.on('error', () => {});
          await client.connect();
          const held = between(3000, 12_000);
          await client.query('BEGIN');
          await client.query('SELECT * FROM campaign.journal_head FOR UPDATE');
          await sleep(held);
          await client.query('COMMIT');
          await client.end();
          return { heldMs: Math.round(held) };
        },
        stall: async () => {
          const stalled = between(5000, 10_000);
          proxy.stall();
          await sleep(stalled);
          proxy.heal();
          return { stalledMs: Math.round(stalled) };
        },
        immediate: async () => {
          await server.crash();
          const down = between(500, 3000);
          await sleep(down);
          await server.start();
          return { downMs: Math.round(down) };
        },
      },
      {
        'long outage': async () => {
          await server.kill();
          await sleep(WRITE_RETRY_MS + 10_000);
          await server.start();
          return { downMs: WRITE_RETRY_MS + 10_000 };
        },
      },
    );
    const back = Date.now();
    say('PostgreSQL: faults over, draining');
    await workers.drain();
    const settledAfterMs = await settled(
      async () =>
        Number(
          (await admin("SELECT COUNT(*) AS n FROM campaign.runs WHERE status IN ('resuming', 'interrupted')")).rows[0]
            .n,
        ),
      back,
    );
    const runs = (await admin('SELECT run_id, status FROM campaign.runs')).rows;
    const calls = (await admin('SELECT run_id, call_id, state FROM campaign.run_calls')).rows;
    return await figures({
      ...base,
      runs,
      calls,
      journal: await openPostgresJournal({
        connectionString: server.url,
        schema: 'campaign',
        key: { id: 'campaign', secret: key },
      }),
      workers: workers.state,
      settledAfterMs,
      faults,
    });
  } catch (error) {
    say(`PostgreSQL part failed; the end of the server's log:\n${server.log()}`);
    throw error;
  } finally {
    await proxy.close();
    await server.destroy();
  }
}

async function sqliteCampaign(work) {
  const dir = join(work, 'sqlite-disk');
  mkdirSync(dir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', dir]);
  const file = join(dir, 'toolcircuit.sqlite');
  const key = randomBytes(32).toString('hex');
  const base = {
    store: 'sqlite',
    file,
    key,
    effects: join(work, 'sqlite-effects.jsonl'),
    outcomes: join(work, 'sqlite-outcomes.jsonl'),
    drain: join(work, 'sqlite-drain'),
    concurrency: 3,
    toolMs: 40,
    writeRetryMs: WRITE_RETRY_MS,
    drainMs: DRAIN_MS,
  };
  try {
    await (await openSqliteStore({ file, journal: { key: { id: 'campaign', secret: key } } })).close();
    say(`SQLite: 3 workers × 3 runs for ${SQLITE_SECONDS} s of faults`);
    const workers = startWorkers(base, 3);
    const faults = await faultLoop(
      SQLITE_SECONDS,
      {
        lock: async () => {
          const held = between(3000, 15_000);
          const ready = join(work, `lock-${Date.now()}`);
          const child = spawn(process.execPath, [LOCK_HOLDER, file, ready, join(work, 'never'), String(held)], {
            stdio: 'ignore',
          });
          await new Promise((resolve) => child.on('exit', resolve));
          return { heldMs: Math.round(held) };
        },
        immutable: async () => {
          const parts = [file, `${file}-wal`].filter((path) => existsSync(path));
          const held = between(3000, 6000);
          execFileSync('chattr', ['+i', ...parts]);
          await sleep(held);
          execFileSync('chattr', ['-i', ...parts]);
          return { heldMs: Math.round(held) };
        },
        full: async () => {
          const ballast = join(dir, 'ballast');
          const held = between(3000, 6000);
          const fd = openSync(ballast, 'w');
          const chunk = Buffer.alloc(64 * 1024, 1);
          try {
            for (;;) writeSync(fd, chunk);
          } catch {
            // ENOSPC: the disk is full
          } finally {
            closeSync(fd);
          }
          await sleep(held);
          rmSync(ballast);
          return { heldMs: Math.round(held) };
        },
      },
      {
        'long lock': async () => {
          const ready = join(work, `long-lock-${Date.now()}`);
          const held = WRITE_RETRY_MS + 10_000;
          const child = spawn(process.execPath, [LOCK_HOLDER, file, ready, join(work, 'never'), String(held)], {
            stdio: 'ignore',
          });
          await new Promise((resolve) => child.on('exit', resolve));
          return { heldMs: held };
        },
      },
    );
    const back = Date.now();
    say('SQLite: faults over, draining');
    await workers.drain();
    const count = () => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare("SELECT COUNT(*) AS n FROM runs WHERE status IN ('resuming', 'interrupted')").get().n;
      } finally {
        db.close();
      }
    };
    const settledAfterMs = await settled(async () => count(), back);
    const db = new Database(file, { readonly: true });
    const runs = db.prepare('SELECT run_id, status FROM runs').all();
    const calls = db.prepare('SELECT run_id, call_id, state FROM run_calls').all();
    db.close();
    const result = await figures({
      ...base,
      runs,
      calls,
      journal: await openSqliteJournal({ file, key: { id: 'campaign', secret: key } }),
      workers: workers.state,
      settledAfterMs,
      faults,
    });
    return { ...result, corruptedPage: corruptedPage(file, key, work) };
  } finally {
    execFileSync('umount', [dir]);
  }
}

/** A copy of the store with a page of its journal overwritten: what `verify` and `openSqliteStore` say. */
function corruptedPage(file, key, work) {
  const copy = join(work, 'corrupted.sqlite');
  // A consistent copy (the file alone may miss what is still in its WAL), made through SQLite.
  const source = new Database(file, { readonly: true });
  source.prepare('VACUUM INTO ?').run(copy);
  source.close();
  const db = new Database(copy);
  const leaves = db.prepare("SELECT pageno FROM dbstat WHERE name = 'journal' AND pagetype = 'leaf'").all();
  const size = Number(db.pragma('page_size', { simple: true }));
  db.close();
  const page = leaves[Math.floor(leaves.length / 2)].pageno;
  const fd = openSync(copy, 'r+');
  writeSync(fd, Buffer.alloc(size, 0xa5), 0, size, (page - 1) * size);
  closeSync(fd);
  let exit = 0;
  let stdout = '';
  const keyFile = join(work, 'journal.key');
  writeFileSync(keyFile, key);
  try {
    stdout = execFileSync(
      process.execPath,
      [CLI, 'journal', 'verify', '--sqlite', copy, '--key', `campaign=${keyFile}`, '--json'],
      { encoding: 'utf8' },
    );
  } catch (error) {
    exit = error.status;
    stdout = String(error.stdout);
  }
  const finding = JSON.parse(stdout || '{}');
  return { verifyExit: exit, finding: { ok: finding.ok, seq: finding.seq, problem: finding.problem } };
}

const work = mkdtempSync(join(tmpdir(), 'toolcircuit-fault-campaign-'));
const started = Date.now();
try {
  const results = { date: new Date().toISOString(), node: process.version };
  // Written after each part, so that one part's figures survive a failure of the next.
  const report = () => {
    const text = JSON.stringify({ ...results, seconds: Math.round((Date.now() - started) / 1000) }, null, 2);
    if (OUT !== undefined) writeFileSync(OUT, `${text}\n`);
    return text;
  };
  if (PG_SECONDS > 0) results.postgres = await postgresCampaign(work);
  report();
  if (SQLITE_SECONDS > 0) results.sqlite = await sqliteCampaign(work);
  process.stdout.write(`${report()}\n`);
} finally {
  if (KEEP) say(`logs kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
