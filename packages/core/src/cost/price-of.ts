import type { ModelPrice } from './model-price.js';
import { PRICE_TABLE } from './price-table.js';

/** A dated model id's date (`-20250929`, `-2025-04-14`): the same model, the same price. */
const DATE_SUFFIX = /-(?:\d{8}|\d{4}-\d{2}-\d{2})$/;

/**
 * The row for a model: the application's rows first (they override the shipped table), then the shipped
 * ones; by exact id, then by the id without its date. `undefined`: unknown.
 */
export function priceOf(provider: string, modelId: string, prices: readonly ModelPrice[] = []): ModelPrice | undefined {
  const undated = modelId.replace(DATE_SUFFIX, '');
  for (const table of [prices, PRICE_TABLE]) {
    const row =
      table.find((one) => one.provider === provider && one.model === modelId) ??
      table.find((one) => one.provider === provider && one.model === undated);
    if (row !== undefined) return row;
  }
  return undefined;
}
