import { describe, expect, it } from 'vitest';
import { InMemoryJournal, type JournalEntry } from '../../src/index.js';
import { isoNow } from '../../src/journal/iso-now.js';

const entry = (callId: string): JournalEntry => ({
  at: isoNow(),
  runId: 'run',
  sessionId: 'session',
  humanId: 'human',
  turn: 1,
  callId,
  toolName: 'echo',
  input: { text: callId },
  inputDigest: null,
  verdict: 'executed',
  durationMs: 0,
});

describe('InMemoryJournal', () => {
  it('hands out one frozen list until the next append, and numbers the frozen entries', () => {
    const journal = new InMemoryJournal();
    journal.append(entry('a'));
    const first = journal.entries;
    expect(journal.entries).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => (first as JournalEntry[]).push(entry('x'))).toThrow(TypeError);
    journal.append(entry('b'));
    const second = journal.entries;
    expect(second).not.toBe(first);
    expect(first.map((item) => item.callId)).toEqual(['a']);
    expect(second.map((item) => [item.callId, item.seq])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect(second.every((item) => Object.isFrozen(item))).toBe(true);
  });

  it('keeps its own copy of each entry, as a spread would make it, with seq last', () => {
    const journal = new InMemoryJournal();
    const original = { ...entry('a'), reason: 'unknown_tool', extra: { kept: true } } as JournalEntry;
    journal.append(original);
    const [kept] = journal.entries;
    expect(kept).not.toBe(original);
    expect(kept).toEqual({ ...original, seq: 1 });
    expect(Object.keys(kept ?? {})).toEqual([...Object.keys(original), 'seq']);
    expect(Object.isFrozen(original)).toBe(false);
    (original as { callId: string }).callId = 'changed';
    expect(kept?.callId).toBe('a');
  });

  it('copies an own __proto__ key as data, never as the prototype', () => {
    const journal = new InMemoryJournal();
    const hostile = JSON.parse('{"__proto__":{"polluted":true}}') as object;
    journal.append({ ...entry('a'), ...hostile } as JournalEntry);
    const [kept] = journal.entries;
    expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
    expect(Object.hasOwn(kept ?? {}, '__proto__')).toBe(true);
    expect((kept as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('stamps entries with the ISO time of Date.now()', () => {
    const before = Date.now();
    const stamp = Date.parse(isoNow());
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(Date.now());
    expect(isoNow()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});
