import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DurableStore } from '@toolcircuit/stores';
import { openPostgresStore } from '@toolcircuit/stores/postgres';
import { openSqliteStore } from '@toolcircuit/stores/sqlite';
import { median } from '../measure/stats.js';
import { benchPostgres } from './bench-postgres.js';
import { durableFloor } from './durable-floor.js';
import { durableRunnerRun } from './durable-runner-run.js';
import type { DurableScenario } from './durable-world.js';
import { dropSchema, type FloorDatabase, postgresFloor, sqliteFloor } from './floor-database.js';

/** One row of the goal table. */
export interface DurableGoalRow {
  readonly path: string;
  readonly goal: string;
  readonly measured: string;
  /** `undefined` when it could not be measured (`measured` says why). */
  readonly pass: boolean | undefined;
}

/** The figures behind a row: medians over the rounds, per turn of K calls. */
export interface DurableFigures {
  readonly backend: 'SQLite' | 'PostgreSQL';
  readonly runnerUsPerTurn: number;
  readonly floorUsPerTurn: number;
  /** Median of the per-round ratios (each round times both, in alternating order). */
  readonly ratio: number;
  readonly ratios: readonly number[];
}

export interface DurableReport {
  readonly scenario: DurableScenario;
  readonly rounds: number;
  readonly runsPerRound: number;
  readonly figures: readonly DurableFigures[];
  readonly rows: readonly DurableGoalRow[];
}

export interface DurableBenchOptions {
  readonly scenario: DurableScenario;
  readonly rounds: number;
  readonly runsPerRound: number;
  readonly repoRoot: string;
  readonly log: (line: string) => void;
}

export const DURABLE_RATIO_LIMIT = 1.3;
const GOAL = `≤ ${DURABLE_RATIO_LIMIT}× a hand-written loop committing only a "started" record and an outcome per turn`;

interface Backend {
  readonly store: DurableStore;
  readonly floor: FloorDatabase;
  readonly close: () => Promise<void>;
}

async function timeRuns(play: (runId: string) => Promise<void>, prefix: string, runs: number): Promise<number> {
  const started = performance.now();
  for (let run = 0; run < runs; run += 1) await play(`${prefix}-${run}`);
  return performance.now() - started;
}

async function measureBackend(
  backend: DurableFigures['backend'],
  open: () => Promise<Backend>,
  options: DurableBenchOptions,
): Promise<DurableFigures> {
  const { scenario, rounds, runsPerRound } = options;
  const opened = await open();
  try {
    const runner = durableRunnerRun(scenario, opened.store);
    const floor = durableFloor(scenario, opened.floor);
    // Warm-up, untimed: JIT, prepared statements, the pool's connections.
    await timeRuns(runner, 'warm-runner', 5);
    await timeRuns(floor, 'warm-floor', 5);
    const ratios: number[] = [];
    const runnerTimes: number[] = [];
    const floorTimes: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // Alternating which goes first, so a busy moment of the machine lands on both alike.
      const order = round % 2 === 0 ? (['floor', 'runner'] as const) : (['runner', 'floor'] as const);
      const times: Record<'floor' | 'runner', number> = { floor: 0, runner: 0 };
      for (const system of order) {
        times[system] = await timeRuns(system === 'floor' ? floor : runner, `r${round}-${system}`, runsPerRound);
      }
      ratios.push(times.runner / times.floor);
      const perTurn = (ms: number) => (ms * 1000) / (runsPerRound * scenario.turns);
      runnerTimes.push(perTurn(times.runner));
      floorTimes.push(perTurn(times.floor));
      options.log(`  ${backend} round ${round + 1}: ${(times.runner / times.floor).toFixed(2)}×`);
    }
    return {
      backend,
      runnerUsPerTurn: median(runnerTimes),
      floorUsPerTurn: median(floorTimes),
      ratio: median(ratios),
      ratios,
    };
  } finally {
    await opened.close();
  }
}

function rowOf(figures: DurableFigures): DurableGoalRow {
  return {
    path: `durable runner (packages/stores) on ${figures.backend}`,
    goal: GOAL,
    measured:
      `${figures.ratio.toFixed(2)}× (median of ${figures.ratios.length} rounds, ` +
      `${figures.ratios.map((ratio) => ratio.toFixed(2)).join(' / ')}); ` +
      `${Math.round(figures.runnerUsPerTurn)} vs ${Math.round(figures.floorUsPerTurn)} µs per turn`,
    pass: figures.ratio <= DURABLE_RATIO_LIMIT,
  };
}

/**
 * The durable runner against its floor on a real SQLite file and a real PostgreSQL server: the same
 * scripted model and async tool, K irreversible calls per turn, every call approved, S turns a run.
 */
export async function measureDurableRunner(options: DurableBenchOptions): Promise<DurableReport> {
  const figures: DurableFigures[] = [];
  const rows: DurableGoalRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'toolcircuit-bench-durable-'));
  try {
    options.log('  SQLite (file in a temporary directory, WAL, synchronous = FULL)');
    const sqlite = await measureBackend(
      'SQLite',
      async () => {
        const store = await openSqliteStore({ dataDir: dir });
        const floor = sqliteFloor(dir);
        return { store, floor, close: async () => void (await Promise.all([store.close(), floor.close()])) };
      },
      options,
    );
    figures.push(sqlite);
    rows.push(rowOf(sqlite));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const server = benchPostgres(options.repoRoot);
  if (server.url === undefined) {
    rows.push({
      path: 'durable runner (packages/stores) on PostgreSQL',
      goal: GOAL,
      measured: server.reason,
      pass: undefined,
    });
  } else {
    try {
      options.log('  PostgreSQL (127.0.0.1)');
      const schema = `bench_durable_${process.pid}`;
      const postgres = await measureBackend(
        'PostgreSQL',
        async () => {
          const store = await openPostgresStore({ connectionString: server.url, schema });
          const floor = await postgresFloor(server.url, `${schema}_floor`);
          return {
            store,
            floor,
            close: async () => {
              await store.close();
              await floor.close();
              await dropSchema(server.url, schema);
            },
          };
        },
        options,
      );
      figures.push(postgres);
      rows.push(rowOf(postgres));
    } finally {
      server.stop();
    }
  }
  return { scenario: options.scenario, rounds: options.rounds, runsPerRound: options.runsPerRound, figures, rows };
}
