import { describe, expect, it } from 'vitest';
import { textRangeOfCodePoints, textRangeOfUtf8Bytes } from '../../src/index.js';

describe('provider text spans as UTF-16 ranges', () => {
  const text = 'Café 😀 done';
  it('code points: an astral character counts once, two UTF-16 units', () => {
    const range = textRangeOfCodePoints(text, 5, 6);
    expect(range).toEqual({ start: 5, end: 7 });
    expect(text.slice(range?.start, range?.end)).toBe('😀');
    expect(text.slice(...Object.values(textRangeOfCodePoints(text, 7, 11) ?? {}))).toBe('done');
  });
  it('UTF-8 bytes: é is two bytes, the emoji four', () => {
    const range = textRangeOfUtf8Bytes(text, 6, 10);
    expect(text.slice(range?.start, range?.end)).toBe('😀');
    const tail = textRangeOfUtf8Bytes(text, 11, 15);
    expect(text.slice(tail?.start, tail?.end)).toBe('done');
  });
  it('clamps past the end and refuses an empty or reversed span', () => {
    expect(textRangeOfCodePoints('abc', 1, 99)).toEqual({ start: 1, end: 3 });
    expect(textRangeOfCodePoints('abc', 2, 2)).toBeUndefined();
    expect(textRangeOfUtf8Bytes('abc', 3, 1)).toBeUndefined();
    expect(textRangeOfCodePoints('abc', 5, 9)).toBeUndefined();
  });
});
