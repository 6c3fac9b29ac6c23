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
 */
export const PRICE_TABLE: readonly ModelPrice[] = Object.freeze([
  anthropic('claude-opus-4-6', 5, 25, 6.25, 0.5),
  anthropic('claude-opus-4-5', 5, 25, 6.25, 0.5),
  anthropic('claude-sonnet-4-6', 3, 15, 3.75, 0.3),
  anthropic('claude-sonnet-4-5', 3, 15, 3.75, 0.3),
  anthropic('claude-haiku-4-5', 1, 5, 1.25, 0.1),
]);
