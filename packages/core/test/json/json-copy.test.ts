import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonCopy, plainInputCopy, plainJsonCopy } from '../../src/json/json-copy.js';

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

  it('shares no object with the value: a tool cannot change its result later (property)', () => {
    fc.assert(
      fc.property(
        fc.json().map((text) => JSON.parse(text) as unknown),
        (value) => {
          const copy = jsonCopy(value);
          expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
          const originals = jsonObjectsOf(value);
          for (const copied of jsonObjectsOf(copy)) expect(originals.has(copied)).toBe(false);
        },
      ),
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

/** Every object and array reachable through string keys and indices (what JSON reads). */
function jsonObjectsOf(value: unknown, into: Set<object> = new Set()): Set<object> {
  if (typeof value !== 'object' || value === null || into.has(value)) return into;
  into.add(value);
  for (const member of Object.values(value)) jsonObjectsOf(member, into);
  return into;
}

describe('plainInputCopy', () => {
  it('reads as plainJsonCopy reads, and shares no object with the value JSON would read (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything({ withNullPrototype: true, withDate: true, withSparseArray: true, withObjectString: true }),
          fc.json().map((text) => JSON.parse(text) as unknown),
        ),
        (value) => {
          const fast = plainInputCopy(value);
          const careful = plainJsonCopy(value);
          expect(fast === undefined).toBe(careful === undefined);
          if (careful === undefined) return;
          expect(JSON.stringify(fast)).toBe(JSON.stringify(careful));
          expect(fast).toStrictEqual(careful);
          const originals = jsonObjectsOf(value);
          for (const copied of jsonObjectsOf(fast)) expect(originals.has(copied)).toBe(false);
        },
      ),
    );
  });

  it('refuses what is not plain JSON data, as plainJsonCopy does', () => {
    const hostile = JSON.parse('{"a":{"__proto__":{"x":1}}}') as unknown;
    expect(plainInputCopy(hostile)).toBeUndefined();
    expect(plainInputCopy({ at: new Date(0) })).toBeUndefined();
    expect(plainInputCopy({ nested: { toJSON: () => 1 } })).toBeUndefined();
    expect(plainInputCopy({ n: -0 })).toBeUndefined();
    const holed = [1, 2, 3];
    delete holed[1];
    expect(plainInputCopy(holed)).toBeUndefined();
    expect(plainInputCopy({ skip: undefined })).toBeUndefined();
    class Speed extends Array<number> {}
    expect(plainInputCopy({ list: Speed.from([1, 2]) })).toStrictEqual({ list: [1, 2] });
    let deep: unknown = 1;
    for (let level = 0; level < 80; level += 1) deep = { deep };
    expect(plainInputCopy(deep)).toBeUndefined();
  });

  it('copies: a change to the copy never reaches the value', () => {
    const original = JSON.parse('{"list":[{"n":1}],"nested":{"s":"x"}}') as {
      list: { n: number }[];
      nested: { s: string };
    };
    const copy = plainInputCopy(original) as typeof original;
    copy.list[0] = { n: 2 };
    copy.list.push({ n: 3 });
    copy.nested.s = 'changed';
    expect(original).toStrictEqual({ list: [{ n: 1 }], nested: { s: 'x' } });
  });
});

describe('copied arrays', () => {
  it('are whole: every index present, the same length, short or long, through each copy', () => {
    const short = { items: [{ sku: 'A' }, { sku: 'B' }], tags: [] };
    const long = { rows: Array.from({ length: 5000 }, (_, index) => index) };
    for (const copy of [jsonCopy, plainJsonCopy, plainInputCopy]) {
      for (const value of [short, long]) {
        const copied = copy(value) as Record<string, unknown[]>;
        expect(copied).toEqual(value);
        for (const [key, array] of Object.entries(copied)) {
          expect(array).toHaveLength((value as Record<string, unknown[]>)[key]?.length ?? -1);
          // No hole: a hole would read as `undefined` here and be left out by `Object.keys`.
          expect(Object.keys(array)).toHaveLength(array.length);
        }
        // Still an ordinary array a caller may grow.
        copied.tags?.push('x');
        expect(copied.tags ?? ['x']).toEqual(['x']);
      }
    }
  });

  it('stop at the first member JSON would change, however far in (plain copies refuse, jsonCopy round-trips)', () => {
    const value = { rows: [1, 2, undefined, 4] };
    expect(plainJsonCopy(value)).toBeUndefined();
    expect(plainInputCopy(value)).toBeUndefined();
    expect(jsonCopy(value)).toEqual({ rows: [1, 2, null, 4] });
  });
});
