import { jsonDigest } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { FloorJournal } from '../../src/systems/floor-journal.js';

describe('the journaling floor', () => {
  it('digests what toolcircuit digests: the canonical JSON of the input and of the text answer', () => {
    const journal = new FloorJournal();
    const input = { status: 'open', customer: { region: 'eu', id: 7 }, limit: 3 };
    const call = { id: 'call-1', toolName: 'look_up_orders', arguments: JSON.stringify(input) };
    journal.append(call, 2, input, performance.now(), '{"orders":[]}');
    journal.append(call, 2, { limit: -1 }, performance.now(), undefined);
    const [executed, refused] = journal.entries;
    expect(executed?.inputDigest).toBe(jsonDigest(input));
    expect(executed?.outputDigest).toBe(jsonDigest([{ type: 'text', text: '{"orders":[]}' }]));
    // A private copy with sorted keys, not the caller's object.
    expect(executed?.input).toEqual(input);
    expect(executed?.input).not.toBe(input);
    expect(Object.keys(executed?.input as object)).toEqual(['customer', 'limit', 'status']);
    expect(refused).toMatchObject({ seq: 2, verdict: 'refused', inputDigest: jsonDigest({ limit: -1 }) });
    expect(refused?.outputDigest).toBeUndefined();
  });
});
