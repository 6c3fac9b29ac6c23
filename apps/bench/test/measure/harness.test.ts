import { describe, expect, it } from 'vitest';
import { parseBenchOptions } from '../../src/bench-options.js';
import { matrixPlan } from '../../src/measure/matrix-plan.js';
import {
  ASYNC_FLOOR,
  JOURNAL_FLOOR,
  pathPlan,
  STREAM_FLOOR,
  SYNC_FLOOR,
  SYNC_PATH,
} from '../../src/measure/path-plan.js';
import { runMatrix } from '../../src/measure/run-matrix.js';
import { intervals, median } from '../../src/measure/stats.js';
import { warmUpSystems } from '../../src/measure/warm-up-systems.js';
import { loadGoalRows } from '../../src/report/goals/load-goal-rows.js';
import { judgeGoals } from '../../src/report/judge-goals.js';
import { formatMatrix } from '../../src/report/print-report.js';
import { createScript } from '../../src/scenario/scenario.js';
import { aiSystem } from '../../src/systems/ai-system.js';
import type { SystemSpec } from '../../src/systems/bench-system.js';
import { handWrittenSystem } from '../../src/systems/hand-written-system.js';
import { toolcircuitSystem } from '../../src/systems/toolcircuit-system.js';
import { instantResponse, protocolOf } from '../../src/wire/instant-responses.js';
import { resultsOf } from '../support/results-of.js';

const tiny = {
  cells: [
    { calls: 2, steps: 3, tools: 1 },
    { calls: 1, steps: 12, tools: 5 },
  ],
  rounds: () => 2,
  skipReason: () => 'not in this test',
  warmUp: () => false,
};

// Generous timeouts: these play whole conversations, slow on a busy shared machine.
const SLOW = 300_000;

describe('the bench harness (structure only, no timing asserted)', () => {
  it(
    'times every system in every cell and judges the goals from the same figures',
    async () => {
      const systems = [toolcircuitSystem(), handWrittenSystem(), aiSystem()];
      const cells = await runMatrix(systems, tiny, () => {});
      expect(cells).toHaveLength(2);
      for (const cell of cells) {
        expect(cell.results.map((result) => result.id)).toEqual(['toolcircuit', 'hand-written', 'ai']);
        for (const result of cell.results) {
          expect(result.rounds).toBe(2);
          expect(result.metrics?.perCallUs).toBeGreaterThan(0);
          expect(result.metrics?.bestPerCallUs).toBeLessThanOrEqual(result.metrics?.perCallUs ?? 0);
        }
      }
      const options = { ...parseBenchOptions([]), goalCell: { calls: 2, steps: 3, tools: 1 } };
      const results = resultsOf({ options, cells });
      const rows = await loadGoalRows();
      const verdict = (order: number) => rows.find((row) => row.order === order)?.judge(results);
      // The timing phase's goals are judged from these cells…
      expect(verdict(110)?.pass).toBeTypeOf('boolean');
      expect(verdict(120)?.pass).toBeTypeOf('boolean');
      // …while no RSS child and no paths configuration ran: those goals are not measured, never passed.
      expect(verdict(140)?.pass).toBeUndefined();
      expect(verdict(10)?.pass).toBeUndefined();
      expect(verdict(40)?.pass).toBeUndefined();
      const table = formatMatrix(cells, []);
      expect(table.split('\n').filter((line) => line.startsWith('| K='))).toHaveLength(6);
    },
    SLOW,
  );

  it(
    'refuses a system that did not play the whole script',
    async () => {
      const lazy = {
        ...handWrittenSystem(),
        prepare: async () => ({ run: async () => ({ totalMs: 1, stepStarts: [0], toolRuns: 0, finalText: '' }) }),
      };
      await expect(runMatrix([lazy], tiny, () => {})).rejects.toThrow(/did not play K=2 S=3 T=1/);
    },
    SLOW,
  );

  it('plans the full matrix, with the slow peer cells only behind --full', () => {
    const plan = matrixPlan(parseBenchOptions([]));
    expect(plan.cells).toHaveLength(12);
    const ai = aiSystem();
    expect(plan.rounds(ai, { calls: 8, steps: 500, tools: 100 })).toBe(0);
    expect(plan.rounds(ai, { calls: 8, steps: 500, tools: 1 })).toBe(0);
    expect(plan.rounds(ai, { calls: 1, steps: 500, tools: 1 })).toBe(1);
    expect(plan.rounds(ai, { calls: 8, steps: 100, tools: 1 })).toBe(3);
    expect(matrixPlan(parseBenchOptions(['--full'])).rounds(ai, { calls: 8, steps: 500, tools: 100 })).toBe(1);
    expect(matrixPlan(parseBenchOptions(['--quick'])).cells.every((cell) => cell.steps <= 50)).toBe(true);
    expect(() => parseBenchOptions(['--fast'])).toThrow(/Unknown option --fast/);
  });

  it('plans every path in every cell, each against the floor with the same kind of tool', () => {
    const plan = pathPlan(parseBenchOptions([]));
    const async = plan.filter((configuration) => configuration.name === 'async tool');
    const sync = plan.filter((configuration) => configuration.name === 'sync tool');
    expect(async).toHaveLength(12);
    expect(sync).toHaveLength(12);
    for (const { systems } of async) {
      expect(systems.every((entry) => entry.spec.tool === 'async')).toBe(true);
      const floors = systems.filter((entry) => entry.spec.id === 'hand-written').map((entry) => entry.spec);
      expect(floors).toEqual([ASYNC_FLOOR, JOURNAL_FLOOR, STREAM_FLOOR]);
      expect(systems.length).toBeGreaterThanOrEqual(5);
    }
    for (const { systems } of sync) expect(systems.map((entry) => entry.spec)).toEqual([SYNC_PATH, SYNC_FLOOR]);
    // Each `ai` package in a process of its own, with the floor: never beside toolcircuit or the other.
    const versus = plan.filter((configuration) => configuration.name.startsWith('versus ai'));
    expect(versus.map((configuration) => configuration.systems.map((entry) => entry.spec.id))).toEqual([
      ['ai7', 'hand-written'],
      ['ai', 'hand-written'],
    ]);
  });

  it('times only the cells --cells= names, the ai configurations with the goal cell', () => {
    const plan = pathPlan(parseBenchOptions(['--cells=1x10x1,8x100x1']));
    const labels = plan.map(({ name, scenario }) => `${name} ${scenario.calls}x${scenario.steps}x${scenario.tools}`);
    expect(labels).toEqual([
      'async tool 1x10x1',
      'sync tool 1x10x1',
      'async tool 8x100x1',
      'sync tool 8x100x1',
      'versus ai 7 8x100x1',
      'versus ai 6 8x100x1',
    ]);
    expect(() => parseBenchOptions(['--cells=8x100'])).toThrow(/KxSxT/);
  });

  it(
    'judges the paths goals from cells timed the way a paths child times them',
    async () => {
      const scenario = { calls: 2, steps: 3, tools: 1 };
      const [cell] = await runMatrix(
        [toolcircuitSystem({ tool: 'async' }), handWrittenSystem('async')],
        { ...tiny, cells: [scenario] },
        () => {},
      );
      if (cell === undefined) throw new Error('no cell');
      const options = { ...parseBenchOptions([]), goalCell: scenario };
      const results = resultsOf({ options, paths: [{ name: 'async tool', ...cell }] });
      const row = (await loadGoalRows()).find((candidate) => candidate.order === 10);
      const verdict = row?.judge(results);
      expect(verdict?.pass).toBeTypeOf('boolean');
      expect(verdict?.measured).toMatch(/over 1 cells, worst at K=2 S=3 T=1/);
      expect(verdict?.peer).toMatch(/^floor .* µs\/call at K=2 S=3 T=1$/);
    },
    SLOW,
  );

  it('judges ai 7 against toolcircuit each timed in its own process, each over the floor of its process', async () => {
    const metrics = (cpuPerCallUs: number) => ({
      totalMs: 1,
      perCallUs: cpuPerCallUs,
      perStepUs: 1,
      first10Us: 1,
      last10Us: 1,
      bestPerCallUs: cpuPerCallUs,
      cpuPerCallUs,
      bestCpuPerCallUs: cpuPerCallUs,
    });
    const scenario = { calls: 8, steps: 100, tools: 1 };
    const result = (spec: SystemSpec, cpu: number) => ({
      id: spec.id,
      spec,
      label: spec.id,
      rounds: 3,
      prepareMs: 0,
      metrics: metrics(cpu),
    });
    const floor: SystemSpec = { id: 'hand-written', tool: 'async' };
    const paths = [
      { name: 'async tool', scenario, results: [result({ id: 'toolcircuit', tool: 'async' }, 10), result(floor, 8)] },
      { name: 'versus ai 7', scenario, results: [result({ id: 'ai7', tool: 'async' }, 400), result(floor, 16)] },
      { name: 'versus ai 6', scenario, results: [result({ id: 'ai', tool: 'async' }, 2000), result(floor, 8)] },
    ];
    const options = { ...parseBenchOptions([]), goalCell: scenario };
    const row = (await loadGoalRows()).find((candidate) => candidate.order === 30);
    const verdict = row?.judge(resultsOf({ options, paths }));
    // 400 / 16 = 25× its floor for ai 7, 10 / 8 = 1.25× for toolcircuit: 20×, though the raw ratio is 40×.
    expect(verdict?.pass).toBe(false);
    expect(verdict?.measured).toMatch(/^20\.0× at K=8 S=100 T=1, each over the floor of its own process /);
    expect(verdict?.measured).toMatch(
      /\(ai 7 25\.0× its floor, toolcircuit 1\.25×; 30× needs toolcircuit at 0\.83× the floor\)/,
    );
    expect(verdict?.measured).toMatch(/raw CPU ratio 40\.0× \(toolcircuit 10\.0 CPU µs\/call/);
    expect(verdict?.peer).toBe(
      "ai 7 400 CPU µs/call; ai 6 2,000 (200× raw); floor in ai 7's process 16.0, in toolcircuit's 8.00",
    );
  });

  it('judges every row on a saved run, and says which rows the run left out', async () => {
    const options = { ...parseBenchOptions(['--only=startup']) };
    const judged = await judgeGoals(resultsOf({ options, paths: [] }));
    expect(judged.length).toBe((await loadGoalRows()).length);
    const paths = judged.filter(({ row }) => row.phases.includes('paths'));
    expect(paths.length).toBeGreaterThan(0);
    for (const { verdict } of paths) expect(verdict).toMatchObject({ pass: undefined, measured: /--only left out/ });
  });

  it('builds one script shared by every system, with unique call ids', () => {
    const script = createScript({ calls: 8, steps: 20, tools: 100 });
    const ids = script.turns.flat().map((call) => call.id);
    expect(new Set(ids).size).toBe(160);
    expect(new Set(script.turns.flat().map((call) => call.toolName)).size).toBe(100);
  });

  it('answers each provider path with the requested number of tool calls', () => {
    expect(protocolOf('/v1/messages')).toBe('anthropic');
    expect(protocolOf('/v1/chat/completions')).toBe('openai-chat');
    expect(protocolOf('/v1/responses')).toBe('openai-responses');
    expect(protocolOf('/v1beta/models/gemini-bench:generateContent')).toBe('google');
    const anthropic = instantResponse('anthropic', 'look_up_orders', 3, 1) as { content: unknown[] };
    expect(anthropic.content).toHaveLength(3);
    const responses = instantResponse('openai-responses', 'look_up_orders', 3, 2) as { output: { call_id: string }[] };
    expect(new Set(responses.output.map((item) => item.call_id)).size).toBe(3);
  });

  it('computes medians and step gaps', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(intervals([1, 3, 6])).toEqual([2, 3]);
  });

  it(
    'warms every system up on whole, checked conversations until the call budget is spent',
    async () => {
      const lines: string[] = [];
      await warmUpSystems([toolcircuitSystem(), handWrittenSystem()], { calls: 160, budgetMs: 60_000 }, (line) =>
        lines.push(line),
      );
      // Two warm-up conversations (1 and 100 tools) per system, each played whole (80 calls a run) to the budget.
      expect(lines).toHaveLength(4);
      for (const line of lines) expect(line).toMatch(/ 160 calls in \d+ ms$/);
    },
    SLOW,
  );
});
