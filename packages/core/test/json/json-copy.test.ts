import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonCopy } from '../../src/json/json-copy.js';

function roundTrip(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

describe('jsonCopy', () => {
  it('gives exactly what a JSON round trip gives, key order included (property)', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withDate: true, withSparseArray: true }), (value) => {
        const copy = jsonCopy(value);
        const expected = roundTrip(value);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(expected));
        expect(copy).toStrictEqual(expected);
      }),
    );
  });

  it('copies: changing the original afterwards does not change the copy', () => {
    const original = { list: [{ n: 1 }], nested: { s: 'x' } };
    const copy = jsonCopy(original) as { list: { n: number }[]; nested: { s: string } };
    original.list[0] = { n: 2 };
    original.nested.s = 'changed';
    expect(copy).toStrictEqual({ list: [{ n: 1 }], nested: { s: 'x' } });
  });

  it('keeps what JSON transforms exactly as JSON does', () => {
    const hostile = JSON.parse('{"__proto__":{"x":1},"a":2}') as unknown;
    expect(Object.keys(jsonCopy(hostile) as object)).toEqual(['__proto__', 'a']);
    expect(jsonCopy({ at: new Date(0), n: -0, skip: undefined, nan: Number.NaN })).toStrictEqual({
      at: '1970-01-01T00:00:00.000Z',
      n: 0,
      nan: null,
    });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(jsonCopy(cycle)).toBeUndefined();
    expect(jsonCopy({ big: 1n })).toBeUndefined();
    let deep: unknown = 1;
    for (let level = 0; level < 200; level += 1) deep = [deep];
    expect(jsonCopy(deep)).toStrictEqual(deep);
  });
});
