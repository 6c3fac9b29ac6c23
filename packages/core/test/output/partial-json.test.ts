import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/index.js';
import { parsePartialJson } from '../../src/output/partial-json.js';

describe('parsePartialJson', () => {
  it.each([
    ['', undefined],
    ['{', {}],
    ['{"na', {}],
    ['{"name"', {}],
    ['{"name":', {}],
    ['{"name":"Ad', { name: 'Ad' }],
    ['{"name":"A\\', { name: 'A' }],
    ['{"name":"A\\u00', { name: 'A' }],
    ['{"name":"A\\u00e9', { name: 'Aé' }],
    ['{"n":12', {}],
    ['{"n":12,', { n: 12 }],
    ['[1,2', [1]],
    ['{"n":-', {}],
    ['{"n":1.', {}],
    ['{"n":1.5e', {}],
    ['{"ok":tr', {}],
    ['{"ok":true,"list":[1,2', { ok: true, list: [1] }],
    ['{"list":[{"a":null},{"b":"x', { list: [{ a: null }, { b: 'x' }] }],
    ['{"a":1} trailing', { a: 1 }],
    ['{"a" 1', {}],
    ['hello', undefined],
  ])('%j → %j', (text, expected) => {
    expect(parsePartialJson(text)).toEqual(expected);
  });

  it('keeps a "__proto__" key as data, never as the prototype', () => {
    const parsed = parsePartialJson('{"__proto__":{"polluted":true},"a":1') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('never throws on any prefix of an object or array, gives the value on the whole text, and keeps what it showed', () => {
    const container = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue()));
    fc.assert(
      fc.property(container, fc.nat(), (value, seed) => {
        const text = JSON.stringify(value, null, seed % 3 === 0 ? undefined : seed % 3);
        expect(parsePartialJson(text)).toEqual(JSON.parse(text));
        const cut = seed % (text.length + 1);
        const partial = parsePartialJson(text.slice(0, cut));
        // What a prefix shows is never contradicted later: each complete member is in the final value.
        if (partial !== undefined && typeof partial === 'object' && partial !== null && !Array.isArray(partial)) {
          expect(isCompatible(partial, value as JsonValue)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

/** Whether `partial` could grow into `full`: same keys' values where complete, prefixes of strings. */
function isCompatible(partial: JsonValue, full: JsonValue): boolean {
  if (typeof partial === 'string') return typeof full === 'string' && full.startsWith(partial);
  if (partial === null || typeof partial !== 'object') return partial === full;
  if (Array.isArray(partial)) {
    return Array.isArray(full) && partial.every((item, index) => isCompatible(item, full[index] as JsonValue));
  }
  if (full === null || typeof full !== 'object' || Array.isArray(full)) return false;
  return Object.entries(partial).every(([key, item]) => key in full && isCompatible(item, full[key] as JsonValue));
}
