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
  readonly confirmedFloorUsPerTurn: number;
  /** Runner / floor: median of the per-round ratios (each round times all three, in rotating order). */
  readonly ratio: number;
  readonly ratios: readonly number[];
  /** Runner / the companion floor that also commits what a human's confirmation needs. */
  readonly confirmedRatio: number;
  readonly confirmedRatios: readonly number[];
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
const CONFIRMED_GOAL =
  `≤ ${DURABLE_RATIO_LIMIT}× the same loop also committing what a human's confirmation needs ` +
  '(the waiting run, the decisions)';

interface Backend {
  readonly store: DurableStore;
  readonly floor: FloorDatabase;
  readonly close: () => Promise<void>;
}

type SystemName = 'floor' | 'confirmed' | 'runner';
const SYSTEMS: readonly SystemName[] = ['floor', 'confirmed', 'runner'];

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
    const plays: Record<SystemName, (runId: string) => Promise<void>> = {
      floor: durableFloor(scenario, opened.floor),
      confirmed: durableFloor(scenario, opened.floor, { confirmed: true }),
      runner: durableRunnerRun(scenario, opened.store),
    };
    // Warm-up, untimed: JIT, prepared statements, the pool's connections.
    for (const system of SYSTEMS) await timeRuns(plays[system], `warm-${system}`, 5);
    const perTurn: Record<SystemName, number[]> = { floor: [], confirmed: [], runner: [] };
    const ratios: number[] = [];
    const confirmedRatios: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // Rotating which goes first, so a busy moment of the machine lands on each alike.
      const order = SYSTEMS.map((_, index) => SYSTEMS[(index + round) % SYSTEMS.length] as SystemName);
      const times: Record<SystemName, number> = { floor: 0, confirmed: 0, runner: 0 };
      for (const system of order) times[system] = await timeRuns(plays[system], `r${round}-${system}`, runsPerRound);
      for (const system of SYSTEMS) perTurn[system].push((times[system] * 1000) / (runsPerRound * scenario.turns));
      ratios.push(times.runner / times.floor);
      confirmedRatios.push(times.runner / times.confirmed);
      options.log(
        `  ${backend} round ${round + 1}: ${(times.runner / times.floor).toFixed(2)}× the floor, ` +
          `${(times.runner / times.confirmed).toFixed(2)}× the floor with confirmation`,
      );
    }
    return {
      backend,
      runnerUsPerTurn: median(perTurn.runner),
      floorUsPerTurn: median(perTurn.floor),
      confirmedFloorUsPerTurn: median(perTurn.confirmed),
      ratio: median(ratios),
      ratios,
      confirmedRatio: median(confirmedRatios),
      confirmedRatios,
    };
  } finally {
    await opened.close();
  }
}

const list = (ratios: readonly number[]) => ratios.map((ratio) => ratio.toFixed(2)).join(' / ');

function rowsOf(figures: DurableFigures): DurableGoalRow[] {
  const path = `durable runner (packages/stores) on ${figures.backend}`;
  return [
    {
      path,
      goal: GOAL,
      measured:
        `${figures.ratio.toFixed(2)}× (median of ${figures.ratios.length} rounds: ${list(figures.ratios)}); ` +
        `${Math.round(figures.runnerUsPerTurn)} vs ${Math.round(figures.floorUsPerTurn)} µs per turn`,
      pass: figures.ratio <= DURABLE_RATIO_LIMIT,
    },
    {
      path: `${path}, against the floor with confirmation`,
      goal: CONFIRMED_GOAL,
      measured:
        `${figures.confirmedRatio.toFixed(2)}× (${list(figures.confirmedRatios)}); ` +
        `${Math.round(figures.runnerUsPerTurn)} vs ${Math.round(figures.confirmedFloorUsPerTurn)} µs per turn`,
      pass: figures.confirmedRatio <= DURABLE_RATIO_LIMIT,
    },
  ];
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
    rows.push(...rowsOf(sqlite));
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
      rows.push(...rowsOf(postgres));
    } finally {
      server.stop();
    }
  }
  return { scenario: options.scenario, rounds: options.rounds, runsPerRound: options.runsPerRound, figures, rows };
}
