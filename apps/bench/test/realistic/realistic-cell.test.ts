// The realistic cell and the streamLoop row: each configuration plays the whole conversation and runs every
// call, the arguments are what the cell says they are, and both goal rows judge the figures they are handed
// (no timing is asserted here).
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { PathCell } from '../../src/measure/measure-paths.js';
import { STREAM_CIRCUIT, STREAM_FLOOR } from '../../src/measure/path-plan.js';
import type { RunMetrics } from '../../src/measure/run-metrics.js';
import {
  REALISTIC_SYSTEMS,
  type RealisticCell,
  type RealisticSystem,
  realisticPlayers,
  realisticTurns,
} from '../../src/realistic/measure-realistic-cell.js';
import { ticketJsonSchema } from '../../src/realistic/ticket-tool.js';
import type { BenchResults } from '../../src/report/bench-results.js';
import { realisticCellGoal } from '../../src/report/goals/realistic-cell-goal.js';
import { streamFloorGoal } from '../../src/report/goals/stream-floor-goal.js';
import type { SystemSpec } from '../../src/systems/bench-system.js';

describe('the realistic cell', () => {
  it('sends about 190 characters of valid JSON per call, against six required properties', () => {
    const turns = realisticTurns(8, 100);
    const texts = turns.flat();
    expect(texts).toHaveLength(800);
    const mean = texts.reduce((sum, text) => sum + text.length, 0) / texts.length;
    expect(mean).toBeGreaterThan(170);
    expect(mean).toBeLessThan(230);
    const schema = ticketJsonSchema();
    expect(schema.required).toHaveLength(6);
    const validate = new Ajv({ strict: false }).compile(schema);
    for (const text of texts) expect(validate(JSON.parse(text)), text).toBe(true);
  });

  it('plays every configuration to the end, each running every call (a shortfall throws)', async () => {
    const players = realisticPlayers(realisticTurns(3, 4));
    for (const system of REALISTIC_SYSTEMS) await expect(players[system]()).resolves.toBeUndefined();
  });

  it('its goal row judges the steady state against 2× the floor, and says when it was not measured', () => {
    const figures = (defaults: number): BenchResults => {
      const of = (value: number) =>
        Object.fromEntries(REALISTIC_SYSTEMS.map((system) => [system, value])) as Record<RealisticSystem, number>;
      const warmUs = { ...of(3), floor: 1.5, defaults };
      const cell: RealisticCell = {
        calls: 8,
        steps: 100,
        rounds: 3,
        runs: 100,
        coldRuns: 10,
        steadyRuns: 30,
        argumentChars: 190,
        warmUs,
        coldUs: { ...of(12), floor: 3 },
      };
      return { realistic: cell } as unknown as BenchResults;
    };
    expect(realisticCellGoal.judge(figures(2.9)).pass).toBe(true);
    expect(realisticCellGoal.judge(figures(3.1)).pass).toBe(false);
    expect(realisticCellGoal.judge({} as BenchResults).pass).toBeUndefined();
  });
});

describe('the streamLoop row', () => {
  const metrics = (us: number): RunMetrics => ({
    totalMs: 1,
    perCallUs: us,
    perStepUs: us,
    first10Us: us,
    last10Us: us,
    bestPerCallUs: us,
    cpuPerCallUs: us,
    bestCpuPerCallUs: us,
  });
  const result = (spec: SystemSpec, us: number) => ({
    id: spec.id,
    spec,
    label: spec.id,
    rounds: 3,
    metrics: metrics(us),
    prepareMs: 0,
  });
  const cell = (calls: number, circuit: number, streamFloor: number): PathCell => ({
    name: 'async tool',
    scenario: { calls, steps: 100, tools: 1 },
    // The plain floor is cheaper still: the row must judge against the streaming floor, not it.
    results: [
      result(STREAM_CIRCUIT, circuit),
      result(STREAM_FLOOR, streamFloor),
      result({ id: 'hand-written', tool: 'async' }, 1),
    ],
  });
  const run = (paths: PathCell[]) =>
    ({ paths, options: { goalCell: { calls: 8, steps: 100, tools: 1 } } }) as unknown as BenchResults;

  it('passes when every cell is within 1.5× the streaming floor, and fails on the worst cell over it', () => {
    expect(streamFloorGoal.judge(run([cell(8, 6, 4.5), cell(1, 7, 5)])).pass).toBe(true);
    const failing = streamFloorGoal.judge(run([cell(8, 6, 4.5), cell(1, 9, 5)]));
    expect(failing.pass).toBe(false);
    expect(failing.measured).toContain('worst at K=1 S=100 T=1');
    expect(streamFloorGoal.judge(run([])).pass).toBeUndefined();
  });
});
