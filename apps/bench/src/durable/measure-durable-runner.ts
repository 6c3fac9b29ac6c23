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
import { type GrowthReport, measureDurableGrowth } from './measure-durable-growth.js';

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
  /** The goal's scenario: no confirmation, every call under a start record and an outcome. */
  readonly runnerUsPerTurn: number;
  /** The companion scenario: every turn confirmed by a human (a pause and a resume per turn). */
  readonly confirmedRunnerUsPerTurn: number;
  readonly floorUsPerTurn: number;
  readonly confirmedFloorUsPerTurn: number;
  /** Runner / floor: median of the per-round ratios (each round times all three, in rotating order). */
  readonly ratio: number;
  readonly ratios: readonly number[];
  /** The confirming runner / the companion floor that also commits what a human's confirmation needs. */
  readonly confirmedRatio: number;
  readonly confirmedRatios: readonly number[];
  /** This process's CPU per turn (the database server's, for PostgreSQL, is not in it). */
  readonly cpuUsPerTurn: {
    readonly runner: number;
    readonly floor: number;
    readonly confirmedRunner: number;
    readonly confirmed: number;
  };
  /** Runner / floor on this process's CPU time: median of the per-round ratios. */
  readonly cpuRatio: number;
}

export interface DurableReport {
  readonly scenario: DurableScenario;
  readonly rounds: number;
  readonly runsPerRound: number;
  readonly figures: readonly DurableFigures[];
  readonly rows: readonly DurableGoalRow[];
  /** One long run per database, turn by turn, and the honest floor beside it (see `measureDurableGrowth`). */
  readonly growth?: GrowthReport;
}

export interface DurableBenchOptions {
  readonly scenario: DurableScenario;
  readonly rounds: number;
  readonly runsPerRound: number;
  readonly repoRoot: string;
  readonly log: (line: string) => void;
  /** Turns of the long run that measures the cost per turn as the run grows (K stays the scenario's). */
  readonly growthTurns?: number;
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

type SystemName = 'floor' | 'confirmed' | 'runner' | 'confirmedRunner';
const SYSTEMS: readonly SystemName[] = ['floor', 'confirmed', 'runner', 'confirmedRunner'];
const none = (): Record<SystemName, number> => ({ floor: 0, confirmed: 0, runner: 0, confirmedRunner: 0 });

/** Wall and this process's CPU time of one run, in ms. */
async function timeRun(play: (runId: string) => Promise<void>, runId: string): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await play(runId);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
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
      runner: durableRunnerRun(scenario, opened.store, { confirmed: false }),
      confirmedRunner: durableRunnerRun(scenario, opened.store, { confirmed: true }),
    };
    // Warm-up, untimed: JIT, prepared statements, the pool's connections.
    for (let run = 0; run < 5; run += 1) for (const system of SYSTEMS) await plays[system](`warm-${system}-${run}`);
    const perTurn: Record<SystemName, number[]> = { floor: [], confirmed: [], runner: [], confirmedRunner: [] };
    const cpuPerTurn: Record<SystemName, number[]> = { floor: [], confirmed: [], runner: [], confirmedRunner: [] };
    const ratios: number[] = [];
    const cpuRatios: number[] = [];
    const confirmedRatios: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const wall = none();
      const cpu = none();
      for (let run = 0; run < runsPerRound; run += 1) {
        // Run by run, in rotating order: a busy moment of the machine lands on each system alike.
        for (let index = 0; index < SYSTEMS.length; index += 1) {
          const system = SYSTEMS[(index + run + round) % SYSTEMS.length] as SystemName;
          const time = await timeRun(plays[system], `r${round}-${system}-${run}`);
          wall[system] += time.wall;
          cpu[system] += time.cpu;
        }
      }
      const turns = runsPerRound * scenario.turns;
      for (const system of SYSTEMS) {
        perTurn[system].push((wall[system] * 1000) / turns);
        cpuPerTurn[system].push((cpu[system] * 1000) / turns);
      }
      ratios.push(wall.runner / wall.floor);
      cpuRatios.push(cpu.runner / cpu.floor);
      confirmedRatios.push(wall.confirmedRunner / wall.confirmed);
      options.log(
        `  ${backend} round ${round + 1}: ${(wall.runner / wall.floor).toFixed(2)}× the floor ` +
          `(CPU ${(cpu.runner / cpu.floor).toFixed(2)}×); with confirmation ` +
          `${(wall.confirmedRunner / wall.confirmed).toFixed(2)}× its floor`,
      );
    }
    return {
      backend,
      runnerUsPerTurn: median(perTurn.runner),
      confirmedRunnerUsPerTurn: median(perTurn.confirmedRunner),
      floorUsPerTurn: median(perTurn.floor),
      confirmedFloorUsPerTurn: median(perTurn.confirmed),
      ratio: median(ratios),
      ratios,
      confirmedRatio: median(confirmedRatios),
      confirmedRatios,
      cpuUsPerTurn: {
        runner: median(cpuPerTurn.runner),
        floor: median(cpuPerTurn.floor),
        confirmedRunner: median(cpuPerTurn.confirmedRunner),
        confirmed: median(cpuPerTurn.confirmed),
      },
      cpuRatio: median(cpuRatios),
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
        `${Math.round(figures.runnerUsPerTurn)} vs ${Math.round(figures.floorUsPerTurn)} µs per turn, no ` +
        `confirmation; CPU ${Math.round(figures.cpuUsPerTurn.runner)} vs ${Math.round(figures.cpuUsPerTurn.floor)} ` +
        `µs per turn (${figures.cpuRatio.toFixed(2)}×)`,
      pass: figures.ratio <= DURABLE_RATIO_LIMIT,
    },
    {
      path: `${path}, every turn confirmed, against the floor with confirmation`,
      goal: CONFIRMED_GOAL,
      measured:
        `${figures.confirmedRatio.toFixed(2)}× (${list(figures.confirmedRatios)}); ` +
        `${Math.round(figures.confirmedRunnerUsPerTurn)} vs ${Math.round(figures.confirmedFloorUsPerTurn)} µs per turn`,
      pass: figures.confirmedRatio <= DURABLE_RATIO_LIMIT,
    },
  ];
}

/**
 * The durable runner against its floor on a real SQLite file and a real PostgreSQL server: the same
 * scripted model and async tool, K calls per turn, S turns a run. The goal's runner needs no confirmation
 * (every call under a start record and an outcome, against the floor's two commits a turn); the companion
 * runner confirms every turn's calls (irreversible, every one approved) against the floor that also
 * commits what the confirmation needs.
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
  const growthTurns = options.growthTurns ?? 1000;
  options.log(`  one run of ${growthTurns} turns per database, turn by turn, and the honest floor`);
  const growth = await measureDurableGrowth({
    scenario: { calls: options.scenario.calls, turns: growthTurns },
    repoRoot: options.repoRoot,
    log: options.log,
  });
  return {
    scenario: options.scenario,
    rounds: options.rounds,
    runsPerRound: options.runsPerRound,
    figures,
    rows,
    growth,
  };
}
