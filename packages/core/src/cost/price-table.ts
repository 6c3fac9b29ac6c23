import type { ModelPrice } from './model-price.js';

const ANTHROPIC_PRICING = 'https://platform.claude.com/docs/en/docs/about-claude/pricing';
const CHECKED = '2026-12-03';

function anthropic(model: string, input: number, output: number, cacheWrite: number, cacheRead: number): ModelPrice {
  return {
    provider: 'anthropic',
    model,
    inputPerMTok: input,
    outputPerMTok: output,
    cacheWritePerMTok: cacheWrite,
    cacheReadPerMTok: cacheRead,
    source: ANTHROPIC_PRICING,
    asOf: CHECKED,
  };
}

/**
 * The prices toolcircuit ships: only rows read from the provider's own pricing page, each with its source
 * and date. A model without a row costs "unknown", never zero: give your own rows (`prices`) for the models
 * you use, from your contract or the provider's page of the day.
 *
 * No OpenAI or Google rows: when this table was last checked (2026-12-03), neither OpenAI's pricing page
 * (developers.openai.com/api/docs/pricing) nor Google's (ai.google.dev/gemini-api/docs/pricing) could be
 * read here, only third-party copies of them, which are not a source. Their models cost "unknown" until a
 * row read from the provider's own page is added (Gemini's long-context tier would need a field too).
 */
export const PRICE_TABLE: readonly ModelPrice[] = Object.freeze([
  anthropic('claude-opus-4-6', 5, 25, 6.25, 0.5),
  anthropic('claude-opus-4-5', 5, 25, 6.25, 0.5),
  anthropic('claude-sonnet-4-6', 3, 15, 3.75, 0.3),
  anthropic('claude-sonnet-4-5', 3, 15, 3.75, 0.3),
  anthropic('claude-haiku-4-5', 1, 5, 1.25, 0.1),
]);
