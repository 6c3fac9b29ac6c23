import type { Usage } from '../messages/usage.js';
import type { ModelPrice } from './model-price.js';

/** What a turn or a run cost: dollars, or `unknown` with why (never zero for what could not be priced). */
export type Cost = { readonly usd: number } | { readonly usd: 'unknown'; readonly why: string };

/**
 * The cost of one model turn's usage at `price`. The neutral usage counts every input token in
 * `inputTokens` (cache reads in `cachedInputTokens`, cache writes in `cacheWriteInputTokens`, both included)
 * and reasoning in `outputTokens` (`reasoningTokens` says how much): each part is priced at its own rate.
 * Unknown when there is no price, when the provider reported no counts, or when tokens of a kind the row
 * has no rate for were used.
 */
export function turnCost(usage: Usage, row: ModelPrice | undefined, model: string): Cost {
  if (row === undefined) return { usd: 'unknown', why: `no price for ${model}` };
  const { inputTokens, outputTokens } = usage;
  if (inputTokens === undefined || outputTokens === undefined) {
    return { usd: 'unknown', why: `${model} reported no token counts` };
  }
  const price = ratesFor(row, inputTokens);
  const cacheRead = usage.cachedInputTokens ?? 0;
  const cacheWrite = usage.cacheWriteInputTokens ?? 0;
  if (cacheRead > 0 && price.cacheReadPerMTok === undefined) {
    return { usd: 'unknown', why: `no cache-read price for ${model}` };
  }
  if (cacheWrite > 0 && price.cacheWritePerMTok === undefined) {
    return { usd: 'unknown', why: `no cache-write price for ${model}` };
  }
  const reasoning = price.reasoningPerMTok === undefined ? 0 : (usage.reasoningTokens ?? 0);
  const perToken =
    (inputTokens - cacheRead - cacheWrite) * price.inputPerMTok +
    cacheRead * (price.cacheReadPerMTok ?? 0) +
    cacheWrite * (price.cacheWritePerMTok ?? 0) +
    (outputTokens - reasoning) * price.outputPerMTok +
    reasoning * (price.reasoningPerMTok ?? 0);
  return { usd: perToken / 1_000_000 + (price.perRequestUsd ?? 0) };
}

/** The row's rates at this prompt length: its long-prompt tier's, every rate of it, once the prompt is over. */
function ratesFor(row: ModelPrice, inputTokens: number): Omit<ModelPrice, 'longPrompt'> {
  const tier = row.longPrompt;
  if (tier === undefined || inputTokens <= tier.aboveInputTokens) return row;
  const { aboveInputTokens: _, ...rates } = tier;
  const { cacheReadPerMTok: _read, cacheWritePerMTok: _write, longPrompt: _tier, ...rest } = row;
  return { ...rest, ...rates };
}

/** The sum: unknown as soon as one part is (the first reason kept). */
export function addCost(total: Cost, part: Cost): Cost {
  if (total.usd === 'unknown') return total;
  if (part.usd === 'unknown') return part;
  return { usd: total.usd + part.usd };
}
