import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteJsonString } from '../../src/json/quote-json-string.js';

describe('quoteJsonString', () => {
  it('is JSON.stringify of the string, for any UTF-16 string (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), (binary, text) => {
        expect(quoteJsonString(binary)).toBe(JSON.stringify(binary));
        expect(quoteJsonString(text)).toBe(JSON.stringify(text));
      }),
      { numRuns: 500 },
    );
  });

  it('escapes quotes, backslashes, control characters and lone surrogates', () => {
    for (const text of [
      'a"b',
      'a\\b',
      'tab\there',
      '\u0000',
      '\u001f',
      '\ud800',
      'x\udfffy',
      '😀',
      '\u2028',
      '\u007f',
    ]) {
      expect(quoteJsonString(text)).toBe(JSON.stringify(text));
    }
  });
});
