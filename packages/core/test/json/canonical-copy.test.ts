import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/index.js';
import { canonicalCopy } from '../../src/json/canonical-copy.js';

function expected(value: unknown): { canonical: string; copy: unknown } | 'throws' {
  try {
    const canonical = canonicalJson(value);
    return { canonical, copy: JSON.parse(canonical) };
  } catch {
    return 'throws';
  }
}

function actual(value: unknown): { canonical: string; copy: unknown } | 'throws' {
  try {
    return canonicalCopy(value);
  } catch {
    return 'throws';
  }
}

describe('canonicalCopy', () => {
  it('is canonicalJson and JSON.parse of it, key order included, and throws when it throws (property)', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withDate: true, withSparseArray: true }), (value) => {
        const got = actual(value);
        const want = expected(value);
        expect(got).toStrictEqual(want);
        if (got !== 'throws' && want !== 'throws') {
          expect(JSON.stringify(got.copy)).toBe(JSON.stringify(want.copy));
        }
      }),
    );
  });

  it('gives a fresh copy, also past the recursion limit and for __proto__ keys', () => {
    const input = { b: { list: [1, -0] }, a: 'x' };
    const { canonical, copy } = canonicalCopy(input);
    expect(canonical).toBe('{"a":"x","b":{"list":[1,0]}}');
    expect(Object.is((copy as { b: { list: number[] } }).b.list[1], 0)).toBe(true);
    (copy as { b: { list: number[] } }).b.list.push(2);
    expect(input.b.list).toEqual([1, -0]);

    let deep: unknown = { z: 1, a: 2 };
    for (let level = 0; level < 100; level += 1) deep = { y: deep, b: level };
    expect(canonicalCopy(deep)).toStrictEqual(expected(deep));

    const hostile = JSON.parse('{"z":{"__proto__":{"x":1}},"a":2}') as unknown;
    const result = canonicalCopy(hostile);
    expect(result.canonical).toBe('{"a":2,"z":{"__proto__":{"x":1}}}');
    expect(Object.keys((result.copy as { z: object }).z)).toEqual(['__proto__']);

    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalCopy(cycle)).toThrow(/cycle/);
  });
});
