// What a run costs: each turn at the price of the model that answered it, "unknown" (never zero) where no
// price is known, and a budget that stops the run once it is spent or its cost cannot be known.
import { describe, expect, it } from 'vitest';
import {
  type AnsweringModelNote,
  costBudget,
  createSession,
  InMemoryJournal,
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
const overloaded = (): never => {
  throw new ProviderError({ provider: 'anthropic', code: 'overloaded', message: '529', status: 529, retryable: true });
};
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
  it('bills a prompt over the long-prompt threshold wholly at the tier’s rates, and one at it at the base rates', () => {
    const tiered: ModelPrice = {
      ...mine,
      cacheWritePerMTok: 1,
      longPrompt: { aboveInputTokens: 100_000, inputPerMTok: 10, outputPerMTok: 40, cacheWritePerMTok: 5 },
    };
    const at = (inputTokens: number, extra: { cachedInputTokens?: number; cacheWriteInputTokens?: number } = {}) =>
      turnCost({ inputTokens, outputTokens: 1_000, totalTokens: inputTokens + 1_000, ...extra }, tiered, 't');
    expect(at(100_000).usd).toBeCloseTo((100_000 * 2 + 1_000 * 8) / 1e6, 12);
    expect(at(100_001).usd).toBeCloseTo((100_001 * 10 + 1_000 * 40) / 1e6, 12);
    expect(at(100_001, { cacheWriteInputTokens: 1 }).usd).toBeCloseTo((100_000 * 10 + 5 + 1_000 * 40) / 1e6, 12);
    // The base row has a cache-read rate, the tier none: over the threshold a cache read is unknown.
    expect(at(99_000, { cachedInputTokens: 10 }).usd).toBeTypeOf('number');
    expect(at(100_001, { cachedInputTokens: 10 })).toEqual({ usd: 'unknown', why: 'no cache-read price for t' });
  });

  it('ships Claude Haiku 5.5 with its long-prompt tier', () => {
    const haiku = priceOf('anthropic', 'claude-haiku-5-5');
    const usage = (inputTokens: number) => ({ inputTokens, outputTokens: 100, totalTokens: inputTokens + 100 });
    expect(turnCost(usage(100_000), haiku, 'h').usd).toBeCloseTo((100_000 * 0.1 + 100 * 0.5) / 1e6, 12);
    expect(turnCost(usage(200_000), haiku, 'h').usd).toBeCloseTo((200_000 * 0.5 + 100 * 2.5) / 1e6, 12);
  });

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
    runLoop({ model, catalogue: lookups, session, messages: user, stopWhen: costBudget({ usd }) });
  const lookupTurn = (n: number) =>
    withUsage(callsTurn([call(`l${n}`, 'chercher_dossier', { numero: 'A-1234' })]), 100_000, 1_000);

  it('a run across two providers: each turn at its own model’s price, the run the sum', async () => {
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
    // Prices for the budget alone need the model they price.
    expect(() => costBudget({ usd: 1, prices: [mine] })).toThrow(/prices/);
  });

  it('the run’s own prices price that model for the budget too', async () => {
    const model = as('openai', 'gpt-test', [lookupTurn(1), lookupTurn(2), lookupTurn(3), textTurn('x')]);
    // Each turn costs $0.208 at the application's row: the budget is spent after the third.
    const result = await runLoop({
      model,
      catalogue: lookups,
      session,
      messages: user,
      prices: [mine],
      stopWhen: costBudget({ usd: 0.5 }),
    });
    expect(result.status).toBe('stopped');
    expect(result.turns).toHaveLength(3);
  });
});

describe('LoopResult.cost and the journal', () => {
  const user: Message[] = [{ role: 'user', content: 'go' }];
  const lookups = frenchCatalogue();
  const session = createSession({ id: 's', humanId: 'h', rights: ['dossiers:lire'] });
  const lookupTurn = (n: number) =>
    withUsage(callsTurn([call(`l${n}`, 'chercher_dossier', { numero: 'A-1234' })]), 100_000, 1_000);
  const first = (100_000 * 3 + 1_000 * 15) / 1e6;

  it('a run on one model: each turn and the total at its price, the same figures as runCost', async () => {
    const model = as('anthropic', 'claude-sonnet-4-6', [lookupTurn(1), withUsage(textTurn('done'), 10_000, 100)]);
    const result = await runLoop({ model, catalogue: lookups, session, messages: user });
    const second = (10_000 * 3 + 100 * 15) / 1e6;
    expect(result.cost.turns.map((turn) => turn.usd)).toEqual([first, second]);
    expect(result.cost.total.usd).toBeCloseTo(first + second, 12);
    expect(result.cost).toEqual(runCost(result.turns, model));
  });

  it('a run across a fallback list: each turn at the model that answered it, the run’s prices over the table', async () => {
    const primary = as('anthropic', 'claude-sonnet-4-6', [lookupTurn(1), overloaded]);
    const secondary = as('openai', 'gpt-test', [withUsage(textTurn('done'), 50_000, 500)]);
    const journal = new InMemoryJournal();
    const result = await runLoop({
      model: [primary, secondary],
      catalogue: lookups,
      session,
      messages: user,
      prices: [mine],
      journal,
      runId: 'r',
    });
    const second = (50_000 * 2 + 500 * 8) / 1e6;
    expect(result.cost.turns.map((turn) => turn.usd)).toEqual([first, second]);
    // The journal says the same, turn by turn, with the model each turn was priced at.
    const notes = journal.notes.filter((note): note is AnsweringModelNote => note.kind === 'answering_model');
    expect(notes.map(({ turn, provider, modelId, usd }) => ({ turn, provider, modelId, usd }))).toEqual([
      { turn: 1, provider: 'anthropic', modelId: 'claude-sonnet-4-6', usd: first },
      { turn: 2, provider: 'openai', modelId: 'gpt-test', usd: second },
    ]);
  });

  it('a model without a price costs "unknown" with why, never zero, in the result and the journal', async () => {
    const primary = as('anthropic', 'claude-sonnet-4-6', [lookupTurn(1), overloaded]);
    const unpriced = as('openai', 'gpt-unpriced', [withUsage(textTurn('hi'), 10, 5)]);
    const journal = new InMemoryJournal();
    const result = await runLoop({ model: [primary, unpriced], catalogue: lookups, session, messages: user, journal });
    expect(result.cost.turns.map((turn) => turn.usd)).toEqual([first, 'unknown']);
    expect(result.cost.total).toEqual({ usd: 'unknown', why: 'no price for openai:gpt-unpriced' });
    expect(journal.notes).toEqual([
      expect.objectContaining({ kind: 'answering_model', turn: 1, usd: first }),
      expect.objectContaining({
        kind: 'answering_model',
        turn: 2,
        usd: 'unknown',
        why: 'no price for openai:gpt-unpriced',
      }),
    ]);
  });

  it('a model chosen per step by prepareStep: that turn at that model’s price', async () => {
    const sonnet46 = as('anthropic', 'claude-sonnet-4-6', [lookupTurn(1)]);
    const haiku = as('anthropic', 'claude-haiku-4-5', [withUsage(textTurn('done'), 10_000, 100)]);
    const result = await runLoop({
      model: sonnet46,
      catalogue: lookups,
      session,
      messages: user,
      prepareStep: ({ turn }) => (turn === 2 ? { model: haiku } : undefined),
    });
    expect(result.cost.turns.map((turn) => turn.usd)).toEqual([first, (10_000 * 1 + 100 * 5) / 1e6]);
  });
});
