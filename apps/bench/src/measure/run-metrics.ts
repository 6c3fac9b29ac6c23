import type { Scenario } from '../scenario/scenario.js';
import type { RunRecord } from '../systems/bench-system.js';
import { intervals, mean, median } from './stats.js';

/** What one run costs, in microseconds. */
export interface RunMetrics {
  readonly totalMs: number;
  readonly perCallUs: number;
  readonly perStepUs: number;
  /** Mean step cost over the first 10 steps (fewer when S < 10). */
  readonly first10Us: number;
  /** Mean step cost over the last 10 steps: with a flat harness, the same as the first 10. */
  readonly last10Us: number;
  /**
   * The cheapest run's µs per call. The two cores are shared with other work: the median is the figure,
   * the best run shows what the same code costs when nothing else competes for the core.
   */
  readonly bestPerCallUs: number;
  /**
   * This process's CPU time (user + system, all its threads: GC helpers included) per call. Unlike wall
   * time it does not count the moments the OS ran another process instead: on a machine shared with other
   * work it is the figure that still measures the code. Absent where a run was not timed this way.
   */
  readonly cpuPerCallUs?: number;
  readonly bestCpuPerCallUs?: number;
}

export const EDGE_STEPS = 10;

export function metricsOf(record: RunRecord, scenario: Scenario, cpuMs?: number): RunMetrics {
  const steps = intervals(record.stepStarts);
  const edge = Math.min(EDGE_STEPS, steps.length);
  const calls = scenario.steps * scenario.calls;
  return {
    ...(cpuMs === undefined ? {} : { cpuPerCallUs: (cpuMs * 1000) / calls, bestCpuPerCallUs: (cpuMs * 1000) / calls }),
    totalMs: record.totalMs,
    perCallUs: (record.totalMs * 1000) / (scenario.steps * scenario.calls),
    perStepUs: (record.totalMs * 1000) / scenario.steps,
    first10Us: mean(steps.slice(0, edge)) * 1000,
    last10Us: mean(steps.slice(steps.length - edge)) * 1000,
    bestPerCallUs: (record.totalMs * 1000) / (scenario.steps * scenario.calls),
  };
}

/** The median of each metric over several runs (each metric separately), and the best run's cost per call. */
export function medianMetrics(runs: readonly RunMetrics[]): RunMetrics {
  const pick = (key: keyof RunMetrics) => median(runs.map((run) => run[key] ?? Number.NaN));
  const cpu = runs.map((run) => run.cpuPerCallUs);
  const timed = cpu.every((value) => value !== undefined);
  return {
    ...(timed
      ? {
          cpuPerCallUs: pick('cpuPerCallUs'),
          bestCpuPerCallUs: Math.min(...runs.map((run) => run.bestCpuPerCallUs ?? Number.NaN)),
        }
      : {}),
    totalMs: pick('totalMs'),
    perCallUs: pick('perCallUs'),
    perStepUs: pick('perStepUs'),
    first10Us: pick('first10Us'),
    last10Us: pick('last10Us'),
    bestPerCallUs: Math.min(...runs.map((run) => run.bestPerCallUs)),
  };
}
