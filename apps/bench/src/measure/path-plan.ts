import type { BenchOptions } from '../bench-options.js';
import type { Scenario } from '../scenario/scenario.js';
import type { SystemSpec } from '../systems/bench-system.js';

/** One system of a configuration, with how often and how it is timed. */
export interface PathSystem {
  readonly spec: SystemSpec;
  readonly rounds: number;
  /** An untimed settling run before each timed one (see `MatrixPlan.warmUp`). */
  readonly settle: boolean;
  /** Conversations per timed sample (see `MatrixPlan.repeat`). */
  readonly repeat: number;
}

/** What one fresh child process times: one cell, its systems alternating round by round. */
export interface PathConfiguration {
  /** For the log only: goals find their figures by system spec. */
  readonly name: string;
  readonly scenario: Scenario;
  readonly systems: readonly PathSystem[];
}

export const ASYNC_FLOOR: SystemSpec = Object.freeze({ id: 'hand-written', tool: 'async' });
export const SYNC_FLOOR: SystemSpec = Object.freeze({ id: 'hand-written', tool: 'sync' });
/**
 * The async floor keeping the least journal an audit can check (canonical input, two SHA-256): timed beside
 * the journaled `runLoop` to show which part of a journal's cost any implementation pays.
 */
export const JOURNAL_FLOOR: SystemSpec = Object.freeze({ id: 'hand-written', tool: 'async', journal: true });
/** The async floor handing its reader each call and result through an async generator, beside `streamLoop`. */
export const STREAM_FLOOR: SystemSpec = Object.freeze({ id: 'hand-written', tool: 'async', loop: 'stream' });

export const ASYNC_CIRCUIT: SystemSpec = Object.freeze({ id: 'toolcircuit', tool: 'async' });
export const JOURNALED_CIRCUIT: SystemSpec = Object.freeze({ id: 'toolcircuit', tool: 'async', journal: true });
export const STREAM_CIRCUIT: SystemSpec = Object.freeze({ id: 'toolcircuit', tool: 'async', loop: 'stream' });
export const ZOD_CIRCUIT: SystemSpec = Object.freeze({ id: 'toolcircuit', tool: 'async', schema: 'zod' });

/** toolcircuit's paths with an async tool, each judged against {@link ASYNC_FLOOR}. */
export const ASYNC_PATHS: readonly SystemSpec[] = Object.freeze([
  ASYNC_CIRCUIT,
  JOURNALED_CIRCUIT,
  STREAM_CIRCUIT,
  ZOD_CIRCUIT,
]);
export const SYNC_PATH: SystemSpec = Object.freeze({ id: 'toolcircuit', tool: 'sync' });
/** Every option at once: shown beside the goal, in the goal cell. */
export const ALL_OPTIONS: SystemSpec = Object.freeze({
  id: 'toolcircuit',
  tool: 'async',
  schema: 'zod',
  journal: true,
  loop: 'stream',
});

const CALLS = [1, 8] as const;
const TOOLS = [1, 100] as const;
/** Calls per timed sample at least (see `MatrixPlan.repeat`). */
const CALLS_PER_SAMPLE = 400;

/**
 * The configurations of the `paths` phase, each timed in a fresh process (no earlier cell's heap or
 * optimisation history carries over): per cell, toolcircuit's async paths (plain, journal, streamLoop, Zod)
 * with the async floor, and the synchronous `runLoop` with the synchronous floor (a separate process, so
 * neither kind of tool shapes the other's call sites); in the goal cell, also every option at once, and
 * the `ai` packages (7 and 6), each in a process of its own with the async floor.
 */
export function pathPlan(options: BenchOptions): PathConfiguration[] {
  const longest = Math.max(...options.steps);
  const rounds = (steps: number) => (options.quick ? 3 : steps <= 10 ? 9 : steps < longest ? 7 : 5);
  const entry = (spec: SystemSpec, scenario: Scenario): PathSystem => ({
    spec,
    rounds: rounds(scenario.steps),
    settle: true,
    repeat: Math.max(1, Math.ceil(CALLS_PER_SAMPLE / (scenario.calls * scenario.steps))),
  });
  const goal = options.goalCell;
  const isGoal = (scenario: Scenario) =>
    scenario.calls === goal.calls && scenario.steps === goal.steps && scenario.tools === goal.tools;
  const configurations: PathConfiguration[] = [];
  for (const steps of options.steps) {
    for (const calls of CALLS) {
      for (const tools of TOOLS) {
        const scenario = { calls, steps, tools };
        const asyncSpecs = isGoal(scenario) ? [...ASYNC_PATHS, ALL_OPTIONS] : ASYNC_PATHS;
        configurations.push({
          name: 'async tool',
          scenario,
          systems: [...asyncSpecs, ASYNC_FLOOR, JOURNAL_FLOOR, STREAM_FLOOR].map((spec) => entry(spec, scenario)),
        });
        configurations.push({
          name: 'sync tool',
          scenario,
          systems: [SYNC_PATH, SYNC_FLOOR].map((spec) => entry(spec, scenario)),
        });
      }
    }
  }
  // The peers cost about a second per run here: three timed runs each, no settling run (their warm-up
  // plays the cell's first ten steps), as in the timing phase. Each `ai` package gets a fresh process of
  // its own with the floor beside it, as toolcircuit's paths do: a process that also ran `ai` 6 (two
  // seconds and megabytes of garbage per run) measured toolcircuit at twice its own process's figure.
  const peer = (spec: SystemSpec): PathSystem => ({ spec, rounds: options.quick ? 1 : 3, settle: false, repeat: 1 });
  for (const id of ['ai7', 'ai'] as const) {
    configurations.push({
      name: id === 'ai7' ? 'versus ai 7' : 'versus ai 6',
      scenario: goal,
      systems: [peer({ id, tool: 'async' }), entry(ASYNC_FLOOR, goal)],
    });
  }
  const { cells } = options;
  if (cells === undefined) return configurations;
  // `--cells=`: only the configurations of the cells asked for (the `ai` ones with the goal cell).
  return configurations.filter(({ scenario }) =>
    cells.some(
      (cell) => cell.calls === scenario.calls && cell.steps === scenario.steps && cell.tools === scenario.tools,
    ),
  );
}
