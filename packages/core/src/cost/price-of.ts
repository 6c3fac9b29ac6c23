import type { ModelPrice } from './model-price.js';
import { PRICE_TABLE } from './price-table.js';

/** A dated model id's date (`-20250929`, `-2025-04-14`): the same model, the same price. */
const DATE_SUFFIX = /-(?:\d{8}|\d{4}-\d{2}-\d{2})$/;

/**
 * What the shipped table answered, per model: the loop prices every turn, and a model the table does not
 * know was looked for through every row, twice, each turn. The table never changes; bounded, for an
 * application that makes up model ids. (The application's own rows are few, and read each time.)
 */
const shipped = new Map<string, ModelPrice | null>();
const MOST_MODELS_REMEMBERED = 256;

/**
 * The row for a model: the application's rows first (they override the shipped table), then the shipped
 * ones; by exact id, then by the id without its date. `undefined`: unknown.
 */
export function priceOf(provider: string, modelId: string, prices: readonly ModelPrice[] = []): ModelPrice | undefined {
  if (prices.length > 0) {
    const own = rowIn(prices, provider, modelId);
    if (own !== undefined) return own;
  }
  const key = `${provider}\u0000${modelId}`;
  const known = shipped.get(key);
  if (known !== undefined) return known ?? undefined;
  const row = rowIn(PRICE_TABLE, provider, modelId);
  if (shipped.size < MOST_MODELS_REMEMBERED) shipped.set(key, row ?? null);
  return row;
}

function rowIn(table: readonly ModelPrice[], provider: string, modelId: string): ModelPrice | undefined {
  const exact = table.find((one) => one.provider === provider && one.model === modelId);
  if (exact !== undefined) return exact;
  const undated = modelId.replace(DATE_SUFFIX, '');
  return table.find((one) => one.provider === provider && one.model === undated);
}
