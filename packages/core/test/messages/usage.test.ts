import { describe, expect, it } from 'vitest';
import { addUsage, emptyUsage } from '../../src/messages/usage.js';

describe('addUsage', () => {
  it('sums field by field, a field staying undefined only while no turn reported it', () => {
    const first = addUsage(emptyUsage, { inputTokens: 10, outputTokens: undefined, totalTokens: 10 });
    expect(first).toEqual({ inputTokens: 10, outputTokens: undefined, totalTokens: 10 });
    const second = addUsage(first, { inputTokens: 5, outputTokens: 7, totalTokens: 12, reasoningTokens: 3 });
    expect(second).toEqual({ inputTokens: 15, outputTokens: 7, totalTokens: 22, reasoningTokens: 3 });
  });

  it('lists the optional counts only once reported, after the three totals, cached before reasoning', () => {
    const plain = addUsage(emptyUsage, { inputTokens: 1, outputTokens: 1, totalTokens: 2 });
    expect(Object.keys(plain)).toEqual(['inputTokens', 'outputTokens', 'totalTokens']);
    const both = addUsage(
      { inputTokens: 1, outputTokens: 1, totalTokens: 2, reasoningTokens: 4 },
      { inputTokens: 1, outputTokens: 1, totalTokens: 2, cachedInputTokens: 6 },
    );
    expect(Object.keys(both)).toEqual([
      'inputTokens',
      'outputTokens',
      'totalTokens',
      'cachedInputTokens',
      'reasoningTokens',
    ]);
    expect(both).toMatchObject({ cachedInputTokens: 6, reasoningTokens: 4 });
    // The running total is a new object each time: a result's usage never changes after it is handed out.
    expect(both).not.toBe(plain);
  });
});
