import { describe, expect, it } from 'vitest';
import { leavesAt, pointerSegments } from '../../src/data-flow/argument-paths.js';
import { TrustedValues } from '../../src/data-flow/trusted-values.js';

const user = { kind: 'user', message: 0 } as const;
const tool = { kind: 'tool', toolName: 'get_contacts', callId: 'c1' } as const;

function trusted(): TrustedValues {
  const values = new TrustedValues();
  values.addText('Pay 1,250.00 EUR to my landlord, FR76 3000 6000 0112 3456 7890 189, and tell bob@example.com.', user);
  values.addJson(
    { contacts: [{ name: 'Alice Martin', email: 'alice@example.com', account: '0532013000' }], vip: true },
    tool,
  );
  return values;
}

describe('trusted values: exact after normalisation, never "not found in untrusted"', () => {
  it('finds a string that is a run of whole words of a trusted text, however re-cased or re-spaced', () => {
    const values = trusted();
    expect(values.find('bob@example.com')).toEqual(user);
    expect(values.find('BOB@EXAMPLE.COM')).toEqual(user);
    expect(values.find('FR7630006000011234567890189')).toEqual(user);
    expect(values.find('FR76 3000 6000 0112 3456 7890 189')).toEqual(user);
    // Look-alike and invisible characters are folded as the flags fold them.
    expect(values.find('bоb@exаmple.com')).toEqual(user); // Cyrillic о and а
    expect(values.find('bob@exam\u200bple.com')).toEqual(user);
  });

  it('does not find part of a word, a value made of pieces, or a value the model wrote itself', () => {
    const values = trusted();
    expect(values.find('b@example.com')).toBeUndefined();
    expect(values.find('example.com')).toBeUndefined();
    expect(values.find('FR7630006000')).toBeDefined(); // three whole words of the IBAN as the user wrote it
    expect(values.find('FR763000600')).toBeUndefined(); // not on a word boundary
    expect(values.find('alice@example.com bob@example.com')).toBeUndefined(); // from two sources
    expect(values.find('mallory@evil.example')).toBeUndefined();
    expect(values.find('')).toBeUndefined();
    expect(values.find('---')).toBeUndefined();
  });

  it('compares numbers as numbers, grouped any way, whole tokens only; digits with a leading zero as digits', () => {
    const values = trusted();
    expect(values.find(1250)).toEqual(user);
    expect(values.find('1 250')).toEqual(user);
    expect(values.find('1250.00')).toEqual(user);
    expect(values.find(125)).toBeUndefined();
    expect(values.find(12500)).toBeUndefined();
    expect(values.find('12.50')).toBeUndefined();
    expect(values.find(76)).toBeUndefined(); // glued to letters in the IBAN
    expect(values.find('0532013000')).toEqual(tool);
    expect(values.find(532013000)).toEqual(tool);
    expect(values.find('0532013001')).toBeUndefined();
  });

  it('finds whole JSON leaves and literals of trusted tools, and values vouched for', () => {
    const values = trusted();
    expect(values.find('Alice Martin')).toEqual(tool);
    expect(values.find('alice martin')).toEqual(tool);
    expect(values.find(true)).toEqual(tool);
    expect(values.find(false)).toBeUndefined();
    expect(values.find(null)).toBeUndefined();
    const vouched = { kind: 'vouched', by: 'sam', callId: 'c9', path: '/iban' } as const;
    values.addValue('GB33 BUKB 2020 1555 5555 55', vouched);
    expect(values.find('GB33BUKB20201555555555')).toEqual(vouched);
    values.addValue(9800, vouched);
    expect(values.find('9,800')).toEqual(vouched);
  });
});

describe('trusted values by turn', () => {
  it('count for calls of later turns than the call that returned them; vouched values at once', () => {
    const values = new TrustedValues();
    const payees = { kind: 'tool', toolName: 'get_payees', callId: 'c1' } as const;
    values.addJson({ iban: 'DE89370400440532013000' }, payees, 2);
    expect(values.find('DE89370400440532013000', 2)).toBeUndefined();
    expect(values.find('DE89370400440532013000', 3)).toEqual(payees);
    values.addValue('DE89370400440532013000', { kind: 'vouched', by: 'sam', callId: 'c2', path: '/iban' });
    expect(values.find('DE89370400440532013000', 2)).toMatchObject({ kind: 'vouched' });
  });
});

describe('trusted-only paths', () => {
  it('are JSON Pointers with * for every element; each leaf below a path is checked', () => {
    expect(pointerSegments('/to')).toEqual(['to']);
    expect(pointerSegments('/a~1b/~0c')).toEqual(['a/b', '~c']);
    expect(pointerSegments('to')).toBeUndefined();
    expect(pointerSegments('/a~2')).toBeUndefined();
    const input = { to: ['a@x.example', 'b@x.example'], payee: { iban: 'X', name: 'Y' }, n: 3 };
    expect(leavesAt(input, ['to'])).toEqual([
      { path: '/to/0', value: 'a@x.example' },
      { path: '/to/1', value: 'b@x.example' },
    ]);
    expect(leavesAt(input, ['payee'])).toEqual([
      { path: '/payee/iban', value: 'X' },
      { path: '/payee/name', value: 'Y' },
    ]);
    expect(
      leavesAt({ items: [{ iban: 'A' }, { iban: 'B' }] }, ['items', '*', 'iban']).map((leaf) => leaf.value),
    ).toEqual(['A', 'B']);
    expect(leavesAt(input, ['missing'])).toEqual([]);
    expect(leavesAt(input, ['to', '7'])).toEqual([]);
  });

  it('mark a place nested too deep to read, so it is never found trusted', () => {
    let deep: unknown = 'x';
    for (let depth = 0; depth < 80; depth += 1) deep = [deep];
    const leaves = leavesAt({ a: deep } as never, ['a']);
    expect(leaves).toHaveLength(1);
    expect(leaves[0]?.tooDeep).toBe(true);
  });
});
