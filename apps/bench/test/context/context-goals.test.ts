// The context rows of the goal table, judged on made-up figures; the hand-written floor does the job it is
// timed for; the policy's cost measurement runs (its figures are the bench's, never asserted here).
import type { Message, ToolMessage } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { parseBenchOptions } from '../../src/bench-options.js';
import type { ContextFigures, LongRunRow } from '../../src/context/measure-context.js';
import { floorShape, measurePolicyCost } from '../../src/context/measure-policy-cost.js';
import type { BenchResults } from '../../src/report/bench-results.js';
import { contextBudgetGoal, contextCostGoal } from '../../src/report/goals/context-policy-goal.js';
import { resultsOf } from '../support/results-of.js';

const run = (backend: string, maxTokens: number, overBudget: number): LongRunRow => ({
  backend,
  turns: 200,
  maxTokens,
  maxBytes: 420_000,
  overBudget,
  unshapedTokens: 1_150_000,
  clearings: 34,
  cpuMs: 9_000,
  wallMs: 20_000,
});

function results(context: ContextFigures | undefined): BenchResults {
  return resultsOf({ options: parseBenchOptions(['--only=context']), context });
}

const cost = {
  turns: 200,
  rounds: 9,
  loopUs: 8,
  policyUs: 30,
  floorUs: 20,
  samples: { loop: [], policy: [], floor: [] },
};

describe('the context rows of the goal table', () => {
  it('passes the budget row only when no request on any backend went over', () => {
    const under = {
      budget: 100_000,
      runs: [run('anthropic (x)', 98_000, 0), run('openai chat (y)', 96_000, 0)],
      cost,
      load: '1 → 1',
    };
    const verdict = contextBudgetGoal.judge(results(under));
    expect(verdict.pass).toBe(true);
    expect(verdict.measured).toBe(
      'largest request 98,000 tokens (anthropic 98,000, openai chat 96,000); 0 of 402 requests over',
    );
    const over = { ...under, runs: [run('anthropic (x)', 100_172, 1), run('openai chat (y)', 96_000, 0)] };
    expect(contextBudgetGoal.judge(results(over)).pass).toBe(false);
    expect(contextBudgetGoal.judge(results(undefined)).pass).toBeUndefined();
    const gemini = {
      ...under,
      runs: [run('google (@google/genai)', 97_000, 0), run('google (@google/generative-ai)', 97_500, 0)],
    };
    expect(contextBudgetGoal.judge(results(gemini)).measured).toMatch(
      /^largest request 97,500 tokens \(@google\/genai 97,000, @google\/generative-ai 97,500\)/,
    );
  });

  it('judges the cost row as a ratio to the floor timed beside it', () => {
    const figures = { budget: 100_000, runs: [], cost, load: '1 → 1' };
    expect(contextCostGoal.judge(results(figures))).toMatchObject({ pass: true, peer: 'floor 20.0 µs per turn' });
    expect(contextCostGoal.judge(results({ ...figures, cost: { ...cost, policyUs: 41 } })).pass).toBe(false);
  });
});

describe('the hand-written floor', () => {
  it('clears the oldest results outside the last turns down to three quarters of the budget', () => {
    const messages: Message[] = [{ role: 'user', content: 'go' }];
    for (let turn = 1; turn <= 10; turn += 1) {
      messages.push({ role: 'assistant', content: [{ type: 'tool_call', id: `c${turn}`, name: 'q', input: {} }] });
      messages.push({
        role: 'tool',
        content: [{ type: 'tool_result', callId: `c${turn}`, name: 'q', content: 'x'.repeat(4_000), isError: false }],
      });
    }
    const shaped = floorShape(messages, 5_000, 3);
    const cleared = shaped.filter(
      (message): message is ToolMessage => message.role === 'tool' && message.content[0]?.content === '[cleared]',
    );
    // 10,000 tokens at 4 characters a token: down to 3,750 takes clearing 7 of the 10 pages.
    expect(cleared.map((message) => message.content[0]?.callId)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']);
    // Under the budget the request goes as it is.
    const few = messages.slice(0, 5);
    expect(floorShape(few, 5_000, 3)).toBe(few);
  });

  it('times the policy, the loop and the floor on the same run', async () => {
    const measured = await measurePolicyCost({ rounds: 1, turns: 20 });
    expect(measured.samples.policy).toHaveLength(1);
    for (const value of [measured.loopUs, measured.policyUs, measured.floorUs])
      expect(Number.isFinite(value)).toBe(true);
  }, 60_000);
});
