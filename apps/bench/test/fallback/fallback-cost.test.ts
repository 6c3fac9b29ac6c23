// The fallback phase: a list that never fails plays the same run as one model (the spare never asked, the
// same dollar cost), and its goal row judges the figures it is handed (no timing is asserted here).
import { describe, expect, it } from 'vitest';
import { measureFallbackCost } from '../../src/fallback/measure-fallback-cost.js';
import { measureFallbackOverSdk } from '../../src/fallback/measure-fallback-over-sdk.js';
import type { FallbackCost } from '../../src/fallback/one-or-list.js';
import type { BenchResults } from '../../src/report/bench-results.js';
import { fallbackCostGoal, fallbackOwnCostGoal } from '../../src/report/goals/fallback-cost-goal.js';

describe('the fallback phase', () => {
  it('plays the run on one model and on a list that never falls over, at the same dollar cost', async () => {
    const cost = await measureFallbackCost({ rounds: 1, turns: 5 });
    expect(cost.samples.one).toHaveLength(1);
    expect(cost.samples.list).toHaveLength(1);
    // 6 turns (5 lookups and the answer) of 1,000 input and 50 output tokens at $3 / $15 per million.
    expect(cost.oneUsd).toBeCloseTo((6 * (1_000 * 3 + 50 * 15)) / 1e6, 12);
    expect(cost.listUsd).toBe(cost.oneUsd);
  });

  it('plays the same through the Anthropic adapter and its SDK; the spare (OpenAI) is never asked', async () => {
    const cost = await measureFallbackOverSdk({ rounds: 1, turns: 4 });
    expect(cost.samples.list).toHaveLength(1);
    // 4 turns of 10 input and 10 output tokens (the instant answer's usage) at the bench's $3 / $15.
    expect(cost.oneUsd).toBeCloseTo((4 * (10 * 3 + 10 * 15)) / 1e6, 12);
    expect(cost.listUsd).toBe(cost.oneUsd);
  });

  it.each([
    ['fallbackOverSdk', fallbackCostGoal],
    ['fallback', fallbackOwnCostGoal],
  ] as const)(
    'its %s goal row passes within 1.1× at the same cost, and fails over it or when the costs differ',
    (key, row) => {
      const figures = (listUs: number, listUsd: number | 'unknown'): BenchResults =>
        ({
          [key]: {
            path: 'test',
            turns: 200,
            rounds: 3,
            oneUs: 10,
            listUs,
            pairedRatio: listUs / 10,
            oneUsd: 0.5,
            listUsd,
            samples: { one: [], list: [] },
          } satisfies FallbackCost,
        }) as unknown as BenchResults;
      expect(row.judge(figures(10.5, 0.5)).pass).toBe(true);
      expect(row.judge(figures(12, 0.5)).pass).toBe(false);
      expect(row.judge(figures(10, 0.6)).pass).toBe(false);
      expect(row.judge(figures(10, 'unknown')).pass).toBe(false);
      expect(row.judge({} as BenchResults).pass).toBeUndefined();
    },
  );
});
