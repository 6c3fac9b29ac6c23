import { createScript, type Scenario, type Script, scenarioLabel } from '../scenario/scenario.js';
import type { BenchSystem, PreparedRun, RunRecord, SystemId, SystemSpec } from '../systems/bench-system.js';
import { collectGarbage } from './collect-garbage.js';
import { medianMetrics, metricsOf, type RunMetrics } from './run-metrics.js';

export interface CellResult {
  readonly id: SystemId;
  /** The system's configuration (tool mode, journal, …): what goals look results up by. */
  readonly spec: SystemSpec;
  readonly label: string;
  /** Timed runs taken (0 when skipped). */
  readonly rounds: number;
  /** Medians over the rounds; absent when skipped. */
  readonly metrics?: RunMetrics;
  /** One-time setup (catalogue, tools, model), not part of any run. */
  readonly prepareMs: number;
  readonly skipped?: string;
}

export interface MatrixCell {
  readonly scenario: Scenario;
  readonly results: readonly CellResult[];
}

export interface MatrixPlan {
  readonly cells: readonly Scenario[];
  /** Timed runs of this system in this cell; 0 skips it (then `skipReason` says why). */
  rounds(system: BenchSystem, scenario: Scenario): number;
  skipReason(system: BenchSystem, scenario: Scenario): string;
  /**
   * Whether each timed run of this system is preceded (after the GC) by one untimed run of the same
   * conversation: the timed run then starts on warm code and on a heap V8 has sized for it. A forced
   * full GC shrinks the young generation, and the next ~1,000 calls measured right after one cost up to
   * twice as much, which would charge the GC to whoever runs next rather than to who made the garbage.
   */
  warmUp(system: BenchSystem, scenario: Scenario): boolean;
  /**
   * Conversations played back to back in one timed sample (default 1). Short conversations are timed in
   * batches: a sample of a few hundred microseconds is decided by whether the OS happened to deschedule
   * the process during it, which on a shared machine says more about the neighbours than about the code.
   */
  repeat?(system: BenchSystem, scenario: Scenario): number;
}

export type Log = (line: string) => void;

/**
 * The timing phase, in ONE process. For each cell every system is prepared once, then the rounds
 * alternate between systems (the order rotates each round, so no system always runs right after the
 * same neighbour), with a GC (and, where the plan says so, an untimed settling run) before every run. A run that did not play the whole script (wrong
 * number of tool runs or model calls, wrong answer) aborts the benchmark: a fast wrong run is no result.
 */
export async function runMatrix(systems: readonly BenchSystem[], plan: MatrixPlan, log: Log): Promise<MatrixCell[]> {
  const cells: MatrixCell[] = [];
  for (const scenario of plan.cells) {
    const script = createScript(scenario);
    const prepared = new Map<BenchSystem, { run: PreparedRun; prepareMs: number }>();
    for (const system of systems) {
      if (plan.rounds(system, scenario) === 0) continue;
      const started = performance.now();
      const run = await system.prepare(script);
      prepared.set(system, { run, prepareMs: performance.now() - started });
    }
    const runs = new Map<BenchSystem, RunMetrics[]>();
    const maxRounds = Math.max(0, ...systems.map((system) => plan.rounds(system, scenario)));
    const cellStarted = performance.now();
    for (let round = 0; round < maxRounds; round += 1) {
      for (const system of rotate(systems, round)) {
        const entry = prepared.get(system);
        if (entry === undefined || round >= plan.rounds(system, scenario)) continue;
        collectGarbage();
        if (plan.warmUp(system, scenario)) checkRecord(system, script, await entry.run.run());
        const repeat = plan.repeat?.(system, scenario) ?? 1;
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        const record = await entry.run.run();
        checkRecord(system, script, record);
        for (let again = 1; again < repeat; again += 1) checkRecord(system, script, await entry.run.run());
        const batchMs = performance.now() - started;
        const cpu = process.cpuUsage(cpuBefore);
        const cpuMs = (cpu.user + cpu.system) / 1000 / repeat;
        const list = runs.get(system) ?? [];
        // The per-step figures come from the batch's first conversation; the per-call ones from the whole batch.
        list.push(metricsOf(repeat === 1 ? record : { ...record, totalMs: batchMs / repeat }, scenario, cpuMs));
        runs.set(system, list);
      }
    }
    log(`  ${scenarioLabel(scenario).padEnd(18)} ${((performance.now() - cellStarted) / 1000).toFixed(1)} s`);
    cells.push({
      scenario,
      results: systems.map((system): CellResult => {
        const list = runs.get(system);
        const prepareMs = prepared.get(system)?.prepareMs ?? 0;
        if (list === undefined || list.length === 0) {
          return {
            id: system.id,
            spec: system.spec,
            label: system.label,
            rounds: 0,
            prepareMs,
            skipped: plan.skipReason(system, scenario),
          };
        }
        return {
          id: system.id,
          spec: system.spec,
          label: system.label,
          rounds: list.length,
          metrics: medianMetrics(list),
          prepareMs,
        };
      }),
    });
  }
  return cells;
}

export function checkRecord(system: BenchSystem, script: Script, record: RunRecord): void {
  const { calls, steps } = script.scenario;
  const expectedRuns = calls * steps - script.invalidCalls;
  const problems: string[] = [];
  if (record.toolRuns !== expectedRuns) problems.push(`the tool ran ${record.toolRuns} times, not ${expectedRuns}`);
  if (record.stepStarts.length !== steps + 1) {
    problems.push(`the model was asked ${record.stepStarts.length} times, not ${steps + 1}`);
  }
  if (record.finalText !== script.finalText) problems.push(`the answer was ${JSON.stringify(record.finalText)}`);
  if (problems.length > 0) {
    throw new Error(`${system.label} did not play ${scenarioLabel(script.scenario)}: ${problems.join('; ')}.`);
  }
}

function rotate<T>(items: readonly T[], by: number): T[] {
  if (items.length === 0) return [];
  const shift = by % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}
