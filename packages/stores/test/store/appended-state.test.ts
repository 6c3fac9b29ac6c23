// A started turn stored append-only reads back as exactly the state that was stored (the same canonical
// JSON, so the loop sees the same bytes), marked as matching its digest; an item row or head changed in the
// database reads back unmarked, so the runner's digest check refuses it.
import { canonicalJson, jsonDigest } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { appendedStarted, startedOfHead } from '../../src/store/appended-state.js';
import type { StartedTurn } from '../../src/store/durable-store.js';
import type { StateItemRow } from '../../src/store/store-backend.js';
import { storedAsDigested } from '../../src/store/stored-state.js';

function stateAt(turn: number, withSources = true): StartedTurn {
  const messages = [{ role: 'user' as const, content: 'Read the pages, é 😀 \u2028.' }];
  const turns = [];
  for (let at = 1; at <= turn; at += 1) {
    const content = [
      { type: 'tool_call' as const, id: `c${at}`, name: 'read_page', input: { page: at, zeta: 1, alpha: [2] } },
    ];
    messages.push({ role: 'assistant', content } as never);
    if (at < turn) {
      messages.push({
        role: 'tool',
        content: [{ type: 'tool_result', callId: `c${at}`, name: 'read_page', content: `page ${at}`, isError: false }],
      } as never);
    }
    turns.push({
      content,
      usage: { inputTokens: at, outputTokens: 1, totalTokens: at + 1 },
      finishReason: 'tool_calls',
    });
  }
  return {
    version: 1,
    runId: 'run-a',
    turn,
    messages,
    turns: turns as never,
    usage: { inputTokens: turn, outputTokens: turn, totalTokens: 2 * turn },
    ...(withSources
      ? {
          provenance: {
            sources: Array.from({ length: turn - 1 }, (_, index) => ({
              turn: index + 1,
              callId: `c${index + 1}`,
              toolName: 'read_page',
              outputDigest: 'd'.repeat(64),
            })),
          },
        }
      : {}),
  };
}

/** Stores the states one after the other, as the store does, and returns the rows and the last head. */
function store(states: readonly StartedTurn[]) {
  const rows = new Map<string, StateItemRow>();
  let itemsJson: string | null = null;
  let head = { pausedJson: '', pausedDigest: '' };
  const written: number[] = [];
  for (const state of states) {
    const write = appendedStarted('run-a', state, itemsJson);
    for (const [key, row] of rows) if (write.replace.includes(row.part)) rows.delete(key);
    for (const row of write.rows) {
      const key = `${row.part}/${row.idx}`;
      expect(rows.has(key)).toBe(false);
      rows.set(key, row);
    }
    written.push(write.rows.length);
    itemsJson = write.itemsJson;
    head = write;
  }
  return { rows: [...rows.values()], head, written };
}

describe('a started turn stored append-only', () => {
  it('reads back as the same canonical JSON, marked as matching; each state writes only its new items', () => {
    const states = [1, 2, 3, 4, 5].map((turn) => stateAt(turn));
    const { rows, head, written } = store(states);
    // Turn 1: the user message, the assistant message, the model turn; then 2 messages, 1 turn, 1 source each.
    expect(written).toEqual([3, 4, 4, 4, 4]);
    const read = startedOfHead(head.pausedJson, head.pausedDigest, rows);
    expect(canonicalJson(read)).toBe(canonicalJson(states[4]));
    expect(JSON.stringify(read)).toBe(JSON.stringify(JSON.parse(canonicalJson(states[4]))));
    expect(storedAsDigested(read)).toBe(true);
  });

  it('a list that is not the stored one continued is written whole', () => {
    const first = stateAt(3);
    const other = {
      ...stateAt(4),
      messages: [{ role: 'user' as const, content: 'Another start.' }, ...stateAt(4).messages.slice(1)],
    };
    const { rows, head, written } = store([first, other]);
    expect(written[1]).toBe(other.messages.length + 1 + 1);
    const read = startedOfHead(head.pausedJson, head.pausedDigest, rows);
    expect(canonicalJson(read)).toBe(canonicalJson(other));
    expect(storedAsDigested(read)).toBe(true);
  });

  it('a state without provenance reads back without it', () => {
    const state = stateAt(2, false);
    const { rows, head } = store([state]);
    const read = startedOfHead(head.pausedJson, head.pausedDigest, rows);
    expect(canonicalJson(read)).toBe(canonicalJson(state));
  });

  it('an item row changed, removed, or a head changed: read back unmarked, and its digest check fails', () => {
    const state = stateAt(3);
    const { rows, head } = store([state]);
    const changed = rows.map((row) =>
      row.part === 'messages' && row.idx === 2 ? { ...row, itemJson: row.itemJson.replace('page 1', 'page 9') } : row,
    );
    const removed = rows.filter((row) => !(row.part === 'sources' && row.idx === 0));
    const forgedHead = head.pausedJson.replace('"turn":3', '"turn":4');
    for (const [json, items] of [
      [head.pausedJson, changed],
      [head.pausedJson, removed],
      [forgedHead, rows],
    ] as const) {
      const read = startedOfHead(json, head.pausedDigest, items);
      expect(storedAsDigested(read)).toBe(false);
      expect(jsonDigest({ started: read })).not.toBe(head.pausedDigest);
    }
  });
});
