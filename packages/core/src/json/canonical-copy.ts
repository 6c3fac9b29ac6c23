import { walkedCanonicalJson } from './canonical-json.js';
import type { JsonValue } from './json.js';
import { sortedPlainJsonCopy } from './json-copy.js';

/** A call input's canonical JSON text and a private copy of it. */
export interface CanonicalCopy {
  readonly canonical: string;
  /** Equal to `JSON.parse(canonical)`, key order included: a fresh value nobody else holds. */
  readonly copy: JsonValue;
}

/**
 * `canonicalJson(value)` and `JSON.parse` of it. Plain data (what adapters produce) takes one walk: the
 * sorted copy is the copy, and the engine's `JSON.stringify` of it the canonical text. Anything else
 * (`toJSON`, `undefined` members, index-like keys, `__proto__` keys, deep nesting) is exactly those two
 * steps; JSON.parse copes with any depth. Throws what `canonicalJson` throws.
 */
export function canonicalCopy(value: unknown): CanonicalCopy {
  const sorted = sortedPlainJsonCopy(value);
  if (sorted !== undefined) return { canonical: JSON.stringify(sorted), copy: sorted };
  return walkedCanonicalCopy(value);
}

/** {@link canonicalCopy} for a value already known not to be plain data (see `plainJsonCopy`). */
export function walkedCanonicalCopy(value: unknown): CanonicalCopy {
  const canonical = walkedCanonicalJson(value);
  return { canonical, copy: JSON.parse(canonical) as JsonValue };
}
