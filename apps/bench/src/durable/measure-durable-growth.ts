import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Model } from '@toolcircuit/core';
import { createDurableRunner, type DurableStore, type JournalKey } from '@toolcircuit/stores';
import { openPostgresStore } from '@toolcircuit/stores/postgres';
import { openSqliteStore } from '@toolcircuit/stores/sqlite';
import pg from 'pg';
import { median } from '../measure/stats.js';
import { benchPostgres } from './bench-postgres.js';
import {
  type DurableScenario,
  durableCatalogue,
  durableModel,
  durableSession,
  FINAL_TEXT,
  userMessages,
} from './durable-world.js';
import { dropSchema } from './floor-database.js';
import { type HonestFloorSql, honestFloor, postgresHonestFloor, sqliteHonestFloor } from './honest-floor.js';

export const GROWTH_LIMIT = 1.2;
export const HONEST_FLOOR_LIMIT = 2;
const WINDOW = 10;

/** One long run's figures per turn: the last ten turns against the first ten (medians of each ten). */
export interface GrowthFigures {
  readonly backend: 'SQLite' | 'PostgreSQL';
  readonly turns: number;
  readonly calls: number;
  /** What the bytes are: this process's write() bytes (SQLite) or the server's WAL bytes (PostgreSQL). */
  readonly bytesOf: string;
  readonly bytesFirst: number;
  readonly bytesLast: number;
  readonly usFirst: number;
  readonly usLast: number;
  /** Median µs per turn over the whole run: the runner, and the honest floor on the same database. */
  readonly runnerUsPerTurn: number;
  readonly floorUsPerTurn: number;
  readonly floorBytesFirst: number;
  readonly floorBytesLast: number;
}

/** One row of the goal table (the shape of the durable phase's other rows). */
export interface GrowthRow {
  readonly path: string;
  readonly goal: string;
  readonly measured: string;
  /** `undefined` when it could not be measured (`measured` says why). */
  readonly pass: boolean | undefined;
}

export interface GrowthReport {
  readonly figures: readonly GrowthFigures[];
  readonly rows: readonly GrowthRow[];
}

type Probe = () => Promise<number>;

/** Per turn: the time, and the bytes the probe counts, from each model request to the next. */
interface TurnTrace {
  readonly us: number[];
  readonly bytes: number[];
}

function tracer(probe: Probe | undefined) {
  const stamps: { at: number; bytes: number }[] = [];
  return {
    async mark(): Promise<void> {
      const bytes = probe === undefined ? 0 : await probe();
      stamps.push({ at: performance.now(), bytes });
    },
    trace(): TurnTrace {
      const us: number[] = [];
      const bytes: number[] = [];
      for (let index = 1; index < stamps.length; index += 1) {
        const now = stamps[index] as { at: number; bytes: number };
        const before = stamps[index - 1] as { at: number; bytes: number };
        us.push((now.at - before.at) * 1000);
        bytes.push(now.bytes - before.bytes);
      }
      return { us, bytes };
    },
  };
}

/** The runner over one long run, marking each model request (the end of the turn before it). */
async function runnerTrace(
  scenario: DurableScenario,
  store: DurableStore,
  runId: string,
  probe?: Probe,
): Promise<TurnTrace> {
  const marks = tracer(probe);
  const scripted = durableModel(scenario);
  const model: Model = {
    ...scripted,
    generate: async (request) => {
      await marks.mark();
      return scripted.generate(request);
    },
  };
  const runner = createDurableRunner({
    store,
    catalogue: durableCatalogue({ irreversible: false }),
    model,
    concurrency: scenario.calls,
    maxTurns: scenario.turns + 1,
    workerId: 'bench-growth',
  });
  const result = await runner.start({ session: durableSession(), messages: userMessages, runId });
  const last = result.messages.at(-1);
  const text = last?.role === 'assistant' ? last.content.find((part) => part.type === 'text') : undefined;
  if (result.status !== 'completed' || text?.text !== FINAL_TEXT) {
    throw new Error(`the long durable run lost its script: ${result.status}`);
  }
  return marks.trace();
}

async function floorTrace(
  scenario: DurableScenario,
  sql: HonestFloorSql,
  key: JournalKey,
  runId: string,
  probe?: Probe,
): Promise<TurnTrace> {
  const marks = tracer(probe);
  await honestFloor(scenario, sql, key, { onTurn: () => marks.mark() })(runId);
  return marks.trace();
}

const window = (values: readonly number[], from: 'first' | 'last') =>
  median(from === 'first' ? values.slice(0, WINDOW) : values.slice(-WINDOW));

/** This process's bytes handed to write() so far (Linux): SQLite runs in it, so these are its writes. */
function processWrites(): Probe {
  return async () => {
    const line = readFileSync('/proc/self/io', 'utf8')
      .split('\n')
      .find((row) => row.startsWith('wchar:'));
    return Number(line?.slice('wchar:'.length).trim() ?? 0);
  };
}

/** The server's WAL position, in bytes (the bench's server serves nothing else meanwhile). */
function walPosition(client: pg.Client): Probe {
  return async () => {
    const { rows } = await client.query('SELECT pg_current_wal_insert_lsn()::text AS lsn');
    const [high, low] = String(rows[0].lsn).split('/');
    return Number.parseInt(high ?? '0', 16) * 2 ** 32 + Number.parseInt(low ?? '0', 16);
  };
}

async function measureBackend(
  backend: GrowthFigures['backend'],
  scenario: DurableScenario,
  open: () => Promise<{ store: DurableStore; floor: HonestFloorSql; probe: Probe; close: () => Promise<void> }>,
  key: JournalKey,
  log: (line: string) => void,
): Promise<GrowthFigures> {
  const opened = await open();
  try {
    // Untimed warm-up: JIT, prepared statements, connections.
    await runnerTrace({ ...scenario, turns: 20 }, opened.store, 'warm-runner');
    await floorTrace({ ...scenario, turns: 20 }, opened.floor, key, 'warm-floor');
    const floorTimed = await floorTrace(scenario, opened.floor, key, 'floor-timed');
    const runnerTimed = await runnerTrace(scenario, opened.store, 'runner-timed');
    const runnerBytes = await runnerTrace(scenario, opened.store, 'runner-bytes', opened.probe);
    const floorBytes = await floorTrace(scenario, opened.floor, key, 'floor-bytes', opened.probe);
    // The last turn's trace ends at the final answer's request: every entry is a turn of calls.
    const figures: GrowthFigures = {
      backend,
      turns: scenario.turns,
      calls: scenario.calls,
      bytesOf:
        backend === 'SQLite' ? "bytes this process passed to write() (SQLite's WAL and checkpoints)" : 'WAL bytes',
      bytesFirst: window(runnerBytes.bytes, 'first'),
      bytesLast: window(runnerBytes.bytes, 'last'),
      usFirst: window(runnerTimed.us, 'first'),
      usLast: window(runnerTimed.us, 'last'),
      runnerUsPerTurn: median(runnerTimed.us),
      floorUsPerTurn: median(floorTimed.us),
      floorBytesFirst: window(floorBytes.bytes, 'first'),
      floorBytesLast: window(floorBytes.bytes, 'last'),
    };
    log(
      `  ${backend}: bytes per turn ${Math.round(figures.bytesFirst)} → ${Math.round(figures.bytesLast)}, µs per turn ` +
        `${Math.round(figures.usFirst)} → ${Math.round(figures.usLast)}; runner ${Math.round(figures.runnerUsPerTurn)} ` +
        `vs honest floor ${Math.round(figures.floorUsPerTurn)} µs per turn`,
    );
    return figures;
  } finally {
    await opened.close();
  }
}

function rowsOf(figures: GrowthFigures): GrowthRow[] {
  const bytesRatio = figures.bytesLast / figures.bytesFirst;
  const timeRatio = figures.usLast / figures.usFirst;
  const floorRatio = figures.runnerUsPerTurn / figures.floorUsPerTurn;
  const path = `durable runner (packages/stores) on ${figures.backend}`;
  return [
    {
      path: `${path}, one run of ${figures.turns} turns`,
      goal: `bytes written and time per turn flat: last ${WINDOW} / first ${WINDOW} turns ≤ ${GROWTH_LIMIT}`,
      measured:
        `bytes ${bytesRatio.toFixed(2)}× (${Math.round(figures.bytesFirst)} → ${Math.round(figures.bytesLast)} ` +
        `${figures.bytesOf} per turn, medians); time ${timeRatio.toFixed(2)}× (${Math.round(figures.usFirst)} → ` +
        `${Math.round(figures.usLast)} µs per turn)`,
      pass: bytesRatio <= GROWTH_LIMIT && timeRatio <= GROWTH_LIMIT,
    },
    {
      path: `${path}, against a floor doing its unavoidable work`,
      goal:
        `≤ ${HONEST_FLOOR_LIMIT}× a hand-written loop making the same commits, with canonical JSON and a keyed ` +
        'chain entry per record',
      measured:
        `${floorRatio.toFixed(2)}× (${Math.round(figures.runnerUsPerTurn)} vs ${Math.round(figures.floorUsPerTurn)} µs ` +
        `per turn, medians over ${figures.turns} turns); the floor writes ${Math.round(figures.floorBytesFirst)} → ` +
        `${Math.round(figures.floorBytesLast)} bytes per turn`,
      pass: floorRatio <= HONEST_FLOOR_LIMIT,
    },
  ];
}

/**
 * One long run of the durable runner per database (K calls a turn, S turns, journal keyed), timed turn by
 * turn, then played again with the bytes written counted turn by turn; beside it the honest floor, timed
 * and counted the same way on the same database.
 */
export async function measureDurableGrowth(options: {
  readonly scenario: DurableScenario;
  readonly repoRoot: string;
  readonly log: (line: string) => void;
}): Promise<GrowthReport> {
  const { scenario, log } = options;
  const key: JournalKey = { id: 'bench-growth', secret: randomBytes(32).toString('hex') };
  const figures: GrowthFigures[] = [];
  const rows: GrowthRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'toolcircuit-bench-growth-'));
  try {
    const sqlite = await measureBackend(
      'SQLite',
      scenario,
      async () => {
        const store = await openSqliteStore({ dataDir: dir, journal: { key } });
        const floor = sqliteHonestFloor(dir);
        return {
          store,
          floor,
          probe: processWrites(),
          close: async () => void (await Promise.all([store.close(), floor.close()])),
        };
      },
      key,
      log,
    );
    figures.push(sqlite);
    rows.push(...rowsOf(sqlite));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const server = benchPostgres(options.repoRoot);
  if (server.url === undefined) {
    rows.push({
      path: 'durable runner (packages/stores) on PostgreSQL',
      goal: '',
      measured: server.reason,
      pass: undefined,
    });
    return { figures, rows };
  }
  try {
    const schema = `bench_growth_${process.pid}`;
    const url = server.url;
    const postgres = await measureBackend(
      'PostgreSQL',
      scenario,
      async () => {
        const store = await openPostgresStore({ connectionString: url, schema, journal: { key } });
        const floor = await postgresHonestFloor(url, `${schema}_floor`);
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        return {
          store,
          floor,
          probe: walPosition(client),
          close: async () => {
            await client.end();
            await store.close();
            await floor.close();
            await dropSchema(url, schema);
          },
        };
      },
      key,
      log,
    );
    figures.push(postgres);
    rows.push(...rowsOf(postgres));
  } finally {
    server.stop();
  }
  return { figures, rows };
}
