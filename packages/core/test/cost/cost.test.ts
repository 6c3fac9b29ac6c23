// What a run costs: each turn at the price of the model that answered it, "unknown" (never zero) where no
// price is known, and a budget that stops the run once it is spent or its cost cannot be known.
import { describe, expect, it } from 'vitest';
import {
  costBudget,
  createSession,
  InvalidLoopOptionsError,
  type Message,
  type ModelPrice,
  type ModelTurn,
  PRICE_TABLE,
  ProviderError,
  priceOf,
  runCost,
  runLoop,
  turnCost,
} from '../../src/index.js';
import { frenchCatalogue } from '../fixtures.js';
import { call, callsTurn, type FakeModel, scripted, textTurn } from '../support.js';

const sonnet = priceOf('anthropic', 'claude-sonnet-4-6') as ModelPrice;
const mine: ModelPrice = {
  provider: 'openai',
  model: 'gpt-test',
  inputPerMTok: 2,
  outputPerMTok: 8,
  cacheReadPerMTok: 0.5,
  source: 'https://example.test/contract (the application’s own row)',
  asOf: '2026-12-01',
};

const as = (provider: string, modelId: string, turns: readonly (ModelTurn | (() => ModelTurn))[]): FakeModel => ({
  ...scripted(turns),
  provider,
  modelId,
});
const withUsage = (turn: ModelTurn, inputTokens: number, outputTokens: number): ModelTurn => ({
  ...turn,
  usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
});

describe('the price table', () => {
  it('every shipped row says where its figures come from and when they were read', () => {
    expect(PRICE_TABLE.length).toBeGreaterThan(0);
    for (const row of PRICE_TABLE) {
      expect(row.source).toMatch(/^https:\/\//);
      expect(row.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('finds a dated id by its model; the application’s rows come first; an unknown model has none', () => {
    expect(priceOf('anthropic', 'claude-sonnet-4-6-20260101')).toBe(sonnet);
    expect(priceOf('anthropic', 'claude-sonnet-4-6', [{ ...sonnet, inputPerMTok: 1 }])?.inputPerMTok).toBe(1);
    expect(priceOf('openai', 'gpt-test')).toBeUndefined();
    expect(priceOf('google', 'claude-sonnet-4-6')).toBeUndefined();
  });
});

describe('turnCost', () => {
  it('prices uncached input, cache reads, cache writes and output each at its rate', () => {
    const cost = turnCost(
      { inputTokens: 1_115, outputTokens: 200, totalTokens: 1_315, cachedInputTokens: 100, cacheWriteInputTokens: 15 },
      sonnet,
      'sonnet',
    );
    // 1,000 × $3 + 100 × $0.30 + 15 × $3.75 + 200 × $15, per million.
    expect(cost.usd).toBeCloseTo((1_000 * 3 + 100 * 0.3 + 15 * 3.75 + 200 * 15) / 1e6, 12);
  });

  it('is unknown, never zero, without a price, without counts, or with tokens of a kind the row has no rate for', () => {
    const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
    expect(turnCost(usage, undefined, 'x')).toEqual({ usd: 'unknown', why: 'no price for x' });
    expect(turnCost({ inputTokens: undefined, outputTokens: undefined, totalTokens: undefined }, sonnet, 's').usd).toBe(
      'unknown',
    );
    expect(turnCost({ ...usage, cacheWriteInputTokens: 3 }, mine, 'gpt-test')).toEqual({
      usd: 'unknown',
      why: 'no cache-write price for gpt-test',
    });
  });
});

describe('a run’s cost and its budget', () => {
  const user: Message[] = [{ role: 'user', content: 'go' }];
  const lookups = frenchCatalogue();
  const session = createSession({ id: 's', humanId: 'h', rights: ['dossiers:lire'] });
  const budgeted = (model: FakeModel, usd: number) =>
    runLoop({ model, catalogue: lookups, session, messages: user, stopWhen: costBudget({ usd, model }) });
  const lookupTurn = (n: number) =>
    withUsage(callsTurn([call(`l${n}`, 'chercher_dossier', { numero: 'A-1234' })]), 100_000, 1_000);

  it('a run across two providers: each turn at its own model’s price, the run the sum', async () => {
    const overloaded = () => {
      throw new ProviderError({
        provider: 'anthropic',
        code: 'overloaded',
        message: '529',
        status: 529,
        retryable: true,
      });
    };
    const primary = as('anthropic', 'claude-sonnet-4-6', [lookupTurn(1), overloaded]);
    const secondary = as('openai', 'gpt-test', [withUsage(textTurn('done'), 50_000, 500)]);
    const model = [primary, secondary];
    const result = await runLoop({ model, catalogue: lookups, session, messages: user });
    const cost = runCost(result.turns, model, [mine]);
    const first = (100_000 * 3 + 1_000 * 15) / 1e6;
    const second = (50_000 * 2 + 500 * 8) / 1e6;
    expect(cost.turns.map((turn) => turn.usd)).toEqual([first, second]);
    expect(cost.total.usd).toBeCloseTo(first + second, 12);
    // Without the application's row the OpenAI turn, and so the run, cost "unknown".
    expect(runCost(result.turns, model).total).toEqual({ usd: 'unknown', why: 'no price for openai:gpt-test' });
  });

  it('costBudget stops the run before the request that would go past it, with the reason', async () => {
    const model = as('anthropic', 'claude-sonnet-4-6', [lookupTurn(1), lookupTurn(2), lookupTurn(3), textTurn('x')]);
    // Each turn costs $0.315: the budget is spent after the second.
    const result = await budgeted(model, 0.5);
    expect(result.status).toBe('stopped');
    expect(result.stoppedBy).toBe('costBudget($0.5)');
    expect(result.turns).toHaveLength(2);
    expect(model.requests).toHaveLength(2);
  });

  it('a model without a price stops a budgeted run at once: a budget cannot be kept blind', async () => {
    const model = as('openai', 'gpt-unpriced', [lookupTurn(1), textTurn('x')]);
    const result = await budgeted(model, 100);
    expect(result.status).toBe('stopped');
    expect(result.turns).toHaveLength(1);
    expect(() => costBudget({ usd: 0, model })).toThrow(InvalidLoopOptionsError);
  });
});
