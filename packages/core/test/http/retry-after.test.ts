import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../src/index.js';

const headers = (entries: Record<string, string>) => new Headers(entries);

describe('retryAfterMs', () => {
  it('prefers retry-after-ms, then retry-after seconds', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '1500', 'retry-after': '9' }))).toBe(1500);
    expect(retryAfterMs(headers({ 'retry-after': '2.5' }))).toBe(2500);
  });

  it('reads an HTTP date relative to now, never negative', () => {
    const now = () => Date.parse('Tue, 01 Dec 2026 10:00:00 GMT');
    expect(retryAfterMs(headers({ 'retry-after': 'Tue, 01 Dec 2026 10:00:30 GMT' }), now)).toBe(30_000);
    expect(retryAfterMs(headers({ 'retry-after': 'Tue, 01 Dec 2026 09:59:00 GMT' }), now)).toBe(0);
  });

  it('gives undefined for absent or unusable hints instead of guessing', () => {
    expect(retryAfterMs(headers({}))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after-ms': '-5' }))).toBeUndefined();
  });
});
