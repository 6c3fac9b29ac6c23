import type { ModelPrice } from './model-price.js';

const ANTHROPIC_PRICING = 'https://platform.claude.com/docs/en/docs/about-claude/pricing';
/** Each model's own overview page, whose "Pricing" block lists its rates. */
const anthropicOverview = (page: string): string => `https://platform.claude.com/docs/en/models/${page}/overview`;
const CHECKED = '2026-12-03';

function anthropic(
  model: string,
  input: number,
  output: number,
  cacheWrite: number,
  cacheRead: number,
  source = ANTHROPIC_PRICING,
): ModelPrice {
  return {
    provider: 'anthropic',
    model,
    inputPerMTok: input,
    outputPerMTok: output,
    cacheWritePerMTok: cacheWrite,
    cacheReadPerMTok: cacheRead,
    source,
    asOf: CHECKED,
  };
}

/**
 * Claude Haiku 5.5 bills a prompt over 100,000 tokens at five times the rates of a shorter one. Its page
 * lists input, output and cache-write rates for both tiers but, where it was read, no cache-read rate: a
 * turn that reads the cache costs "unknown" until the application gives its own row.
 */
const HAIKU_5_5: ModelPrice = {
  provider: 'anthropic',
  model: 'claude-haiku-5-5',
  inputPerMTok: 0.1,
  outputPerMTok: 0.5,
  cacheWritePerMTok: 0.125,
  longPrompt: { aboveInputTokens: 100_000, inputPerMTok: 0.5, outputPerMTok: 2.5, cacheWritePerMTok: 0.625 },
  source: anthropicOverview('haiku-5-5'),
  asOf: CHECKED,
};

/**
 * The prices toolcircuit ships: only rows read from the provider's own pricing page, each with its source
 * and date. A model without a row costs "unknown", never zero: give your own rows (`prices`) for the models
 * you use, from your contract or the provider's page of the day.
 *
 * Cache writes are priced at the 5-minute rate (the 1-hour rate is not modelled).
 *
 * No OpenAI or Google rows: when this table was last checked (2026-12-03), neither OpenAI's pricing page
 * (developers.openai.com/api/docs/pricing) nor Google's (ai.google.dev/gemini-api/docs/pricing) could be
 * read here, only third-party copies of them, which are not a source. Their models cost "unknown" until a
 * row read from the provider's own page is added (Gemini's long-context tier would need a field too).
 */
export const PRICE_TABLE: readonly ModelPrice[] = Object.freeze([
  anthropic('claude-opus-5-5', 4, 20, 5, 0.2, anthropicOverview('opus-5-5')),
  anthropic('claude-opus-5', 5, 25, 6.25, 0.5, anthropicOverview('opus-5')),
  anthropic('claude-sonnet-5-5', 2, 10, 2.5, 0.2, anthropicOverview('sonnet-5-5')),
  anthropic('claude-sonnet-5', 2, 10, 2.5, 0.2, anthropicOverview('sonnet-5')),
  HAIKU_5_5,
  anthropic('claude-opus-4-6', 5, 25, 6.25, 0.5),
  anthropic('claude-opus-4-5', 5, 25, 6.25, 0.5),
  anthropic('claude-sonnet-4-6', 3, 15, 3.75, 0.3),
  anthropic('claude-sonnet-4-5', 3, 15, 3.75, 0.3),
  anthropic('claude-haiku-4-5', 1, 5, 1.25, 0.1),
]);
