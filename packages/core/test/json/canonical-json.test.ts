import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argumentDigest, canonicalJson } from '../../src/index.js';

/** An independent oracle: recursive, keys sorted by UTF-16 code units, scalars as JSON.stringify writes them. */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((key) => `${JSON.stringify(key)}:${reference(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('canonicalJson', () => {
  it('writes exactly the reference canonical text, index-like and "__proto__" keys included (property)', () => {
    const key = fc.oneof(
      fc.string(),
      fc.constantFrom('0', '1', '10', '9', '01', '4294967295', '-1', '1.5', '__proto__'),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(key, tie('node'), { maxKeys: 5 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (input) => {
        expect(canonicalJson(input)).toBe(reference(input));
      }),
    );
  });

  it('sorts keys at every level and writes no whitespace', () => {
    expect(canonicalJson({ b: [3, { z: 1, a: 2 }], a: 'é', c: null })).toBe('{"a":"é","b":[3,{"a":2,"z":1}],"c":null}');
  });

  it('gives one digest per JSON meaning, whatever the key order', () => {
    expect(argumentDigest({ amount: 10, to: 'bob' })).toBe(argumentDigest({ to: 'bob', amount: 10 }));
    expect(argumentDigest({ amount: 10, to: 'bob' })).not.toBe(argumentDigest({ amount: 1000, to: 'bob' }));
    expect(argumentDigest({ a: 1 })).toBe(createHash('sha256').update('{"a":1}').digest('hex'));
  });

  it('means what JSON.stringify means, and is a fixed point under re-parsing (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const canonical = canonicalJson(value);
        expect(JSON.parse(canonical)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(JSON.parse(canonical))).toBe(canonical);
      }),
    );
  });

  it('does not depend on key insertion order (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (record) => {
        const reversed = Object.fromEntries(Object.entries(record).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(record));
      }),
    );
  });

  it('keeps an own "__proto__" key as data', () => {
    const hostile = JSON.parse('{"__proto__":{"x":1},"a":2}') as unknown;
    expect(canonicalJson(hostile)).toBe('{"__proto__":{"x":1},"a":2}');
  });

  it('copes with nesting far deeper than JSON.stringify can', () => {
    const depth = 100_000;
    const deep = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(canonicalJson(deep)).toHaveLength(depth * 2);
  });

  it('writes the same sorted text on either side of the recursion depth limit', () => {
    for (const depth of [1, 63, 64, 65, 200]) {
      let value: unknown = { z: [1, undefined], a: 'x' };
      let expected = '{"a":"x","z":[1,null]}';
      for (let level = 0; level < depth; level += 1) {
        value = { y: value, b: [level] };
        expected = `{"b":[${level}],"y":${expected}}`;
      }
      expect(canonicalJson(value)).toBe(expected);
    }
    let deepCycle: Record<string, unknown> = {};
    const root = deepCycle;
    for (let level = 0; level < 100; level += 1) {
      const next: Record<string, unknown> = {};
      deepCycle.next = next;
      deepCycle = next;
    }
    deepCycle.back = root;
    expect(() => canonicalJson(root)).toThrow(/cycle/);
  });

  it('omits undefined members like JSON, and refuses what JSON cannot carry', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow(/cycle/);
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });
});
