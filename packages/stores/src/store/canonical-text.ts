import { canonicalJson } from '@toolcircuit/core';

/**
 * Canonical texts already written for a value, by whoever built it (the runner's turn mirror writes a
 * started turn's text from the texts of its messages, each serialised once, instead of the whole
 * conversation again every turn). Only values built in this package are in here, with the exact text
 * `canonicalJson` would write for them.
 */
const texts = new WeakMap<object, string>();

/** Records `text` as the canonical JSON of `value` (which must not change afterwards). */
export function rememberCanonical(value: object, text: string): void {
  texts.set(value, text);
}

/** `canonicalJson(value)`, or the text recorded for it. */
export function canonicalTextOf(value: object): string {
  return texts.get(value) ?? canonicalJson(value);
}
