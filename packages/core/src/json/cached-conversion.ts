import { sealForReuse } from './cached-json-text.js';

/**
 * For adapters. The loop's history is append-only and keeps the same Message objects across steps, so a message's
 * conversion is computed once and reused while what it depends on (`key`: option values and provider tool
 * names; `anchor`: another object it reads, e.g. the turn before it) is unchanged. One entry per message: a
 * conversation is converted with one set of settings, and a change simply converts again.
 * Values are sealed (frozen shallowly, see `sealForReuse`) so that no later step can push into a cached array,
 * and a request body reuses their text.
 */
export type ConversionCache<T> = WeakMap<
  object,
  { readonly key: string; readonly anchor: object | undefined; readonly value: T }
>;

export function cachedConversion<T extends object>(
  cache: ConversionCache<T>,
  message: object,
  key: string,
  anchor: object | undefined,
  convert: () => T,
): T {
  const hit = cache.get(message);
  if (hit !== undefined && hit.key === key && hit.anchor === anchor) return hit.value;
  const value = sealForReuse(convert());
  cache.set(message, { key, anchor, value });
  return value;
}
