// The turn mirror writes a started turn's canonical text from its parts: it must be exactly the text
// `canonicalJson` writes for the whole state, or a stored state would not match its digest.
import { canonicalJson, checkStateSeal, type ModelTurn, type TaintSource } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { TurnMirror } from '../../src/runner/turn-mirror.js';
import { canonicalTextOf } from '../../src/store/canonical-text.js';
import { STARTED_TURN_SEAL } from '../../src/store/durable-store.js';

function callsTurn(turn: number, extra: Partial<ModelTurn> = {}): ModelTurn {
  return {
    content: [
      { type: 'text', text: `turn ${turn} — "quoted" \u2028 ünïcode` },
      { type: 'tool_call', id: `c${turn}a`, name: 'lookup_case', input: { z: 1, a: [{ y: null, b: 'x' }] } },
      { type: 'tool_call', id: `c${turn}b`, name: 'lookup_case', input: { number: `A-${turn}` } },
    ],
    stopReason: { unified: 'tool_calls', raw: 'tool_use' },
    usage: { inputTokens: 10 * turn, outputTokens: undefined, totalTokens: 3, reasoningTokens: 1 },
    ...extra,
  };
}

describe('turn mirror', () => {
  it('writes the same canonical text as canonicalJson of the whole state, turn after turn', () => {
    const mirror = new TurnMirror(
      {
        runId: 'run-"1"',
        turn: 0,
        messages: [{ role: 'user', content: 'Pay Bob.' }],
        turns: [],
        usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
      },
      0,
    );
    for (let turn = 1; turn <= 3; turn += 1) {
      mirror.onTurn({
        runId: 'run-"1"',
        turn,
        modelTurn: callsTurn(turn, turn === 2 ? { providerMetadata: { anthropic: { b: 1, a: 'x' } } } : {}),
        ...(turn === 3 ? { plan: { turn, model: 'scripted:m', activeTools: ['lookup_case'] } } : {}),
      });
      const first = mirror.starting(turn, `c${turn}b`);
      expect(first.index).toBe(1);
      const state = first.started;
      expect(state?.turn).toBe(turn);
      expect(canonicalTextOf(state as object)).toBe(canonicalJson(state));
      // Stored once per turn: the next start of the turn carries no state.
      expect(mirror.starting(turn, `c${turn}a`)).toEqual({ index: 0 });
      mirror.onResult({
        runId: 'run-"1"',
        turn,
        message: {
          role: 'tool',
          content: [
            { type: 'tool_result', callId: `c${turn}a`, name: 'lookup_case', content: 'ok', isError: false },
            {
              type: 'tool_result',
              callId: `c${turn}b`,
              name: 'lookup_case',
              content: [{ type: 'json', value: { n: turn, a: true } }],
              isError: false,
            },
          ],
        },
      });
    }
  });

  it('with untrusted sources and a key: the text is still canonicalJson of the state, and its seal checks out', () => {
    const key = { id: 'k.1', secret: 'q'.repeat(32) };
    const sources: TaintSource[] = [];
    const mirror = new TurnMirror(
      {
        runId: 'r',
        turn: 0,
        messages: [{ role: 'user', content: 'go' }],
        turns: [],
        usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
        provenance: { sources: [] },
      },
      0,
      key,
    );
    for (let turn = 1; turn <= 3; turn += 1) {
      mirror.onTurn({ runId: 'r', turn, modelTurn: callsTurn(turn) });
      const state = mirror.starting(turn, `c${turn}a`).started;
      // Stored without their texts (each is made again from its result, which the messages hold).
      expect(state?.provenance?.sources).toEqual(sources.map(({ text: _text, ...ref }) => ref));
      expect(canonicalTextOf(state as object)).toBe(canonicalJson(state));
      expect(() => checkStateSeal(STARTED_TURN_SEAL, state as object, { key }, 'started turn')).not.toThrow();
      const altered: object = { ...state, turn: 9 };
      expect(() => checkStateSeal(STARTED_TURN_SEAL, altered, { key }, 'started turn')).toThrow(/altered/);
      sources.push({
        turn,
        callId: `c${turn}a`,
        toolName: 'lookup_case',
        outputDigest: `d${turn}`,
        text: `"t" ${turn}`,
      });
      const listed = [...sources];
      mirror.onResult({
        runId: 'r',
        turn,
        message: { role: 'tool', content: [] },
        get untrustedSources() {
          return listed;
        },
      });
    }
  });

  it('refuses a call that is not one of the current turn: the state would not lead to it', () => {
    const mirror = new TurnMirror(
      { runId: 'r', turn: 0, messages: [], turns: [], usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } },
      0,
    );
    mirror.onTurn({ runId: 'r', turn: 1, modelTurn: callsTurn(1) });
    expect(() => mirror.starting(1, 'other')).toThrow(/not a call of turn 1/);
    expect(() => mirror.starting(2, 'c1a')).toThrow(/not a call of turn 1/);
  });
});
