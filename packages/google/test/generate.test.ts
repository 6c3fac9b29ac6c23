import type { AssistantContentPart, Message, ToolCallPart, ToolDeclaration } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { jsonInteraction, SDKS, syntheticCassette } from './support/gemini-cassette.js';
import { modelFor, withReplay } from './support/replay.js';

const TOOLS: readonly ToolDeclaration[] = [
  {
    name: 'get_location',
    description: 'Where a place is.',
    inputSchema: { type: 'object', properties: { loc_name: { type: 'string' } }, required: ['loc_name'] },
  },
  { name: 'now', description: 'The current time.', inputSchema: { type: 'object', properties: {} } },
];

const USER: readonly Message[] = [{ role: 'user', content: 'Where are Potatoland and New York?' }];

function calls(content: readonly AssistantContentPart[]): ToolCallPart[] {
  return content.filter((part): part is ToolCallPart => part.type === 'tool_call');
}

describe.each(SDKS)('generate() over %s', (sdk) => {
  it('gives two calls to the same function distinct, stable, synthesised ids', async () => {
    const response = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              {
                functionCall: { name: 'get_location', args: { loc_name: 'Potatoland' } },
                thoughtSignature: 'c2lnLTE=',
              },
              { functionCall: { name: 'get_location', args: { loc_name: 'New York' } } },
            ],
          },
          finishReason: 'STOP',
          finishMessage: 'Model generated function call(s).',
        },
      ],
      usageMetadata: { promptTokenCount: 23, candidatesTokenCount: 17, thoughtsTokenCount: 5, totalTokenCount: 45 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'resp-1',
    };
    const cassette = syntheticCassette('two parallel calls to one function, no ids (Gemini default)', [
      jsonInteraction(response),
      jsonInteraction(response),
    ]);
    await withReplay(cassette, async (server) => {
      const model = modelFor(sdk, server);
      const first = await model.generate({ messages: USER, tools: TOOLS });
      const second = await model.generate({ messages: USER, tools: TOOLS });
      const [a, b] = calls(first.content);
      expect(calls(first.content)).toHaveLength(2);
      expect(a?.name).toBe('get_location');
      expect(a?.input).toEqual({ loc_name: 'Potatoland' });
      expect(b?.input).toEqual({ loc_name: 'New York' });
      expect(a?.id).not.toBe(b?.id);
      // Same response → same ids: a replayed or resumed run matches its journal.
      expect(calls(second.content).map((call) => call.id)).toEqual([a?.id, b?.id]);
      expect(a?.providerMetadata).toEqual({ google: { idSynthesized: true, thoughtSignature: 'c2lnLTE=' } });
      expect(b?.providerMetadata).toEqual({ google: { idSynthesized: true } });
      expect(first.stopReason).toEqual({ unified: 'tool_calls', raw: 'STOP' });
      expect(first.usage).toEqual({
        inputTokens: 23,
        outputTokens: 22,
        totalTokens: 45,
        cachedInputTokens: undefined,
        reasoningTokens: 5,
      });
      expect(first.providerMetadata).toEqual({
        google: { responseId: 'resp-1', modelVersion: 'gemini-2.5-flash' },
      });
      expect(server.mismatches).toEqual([]);
    });
  });

  it('keeps text before calls in order, and reads an absent args as {}', async () => {
    const cassette = syntheticCassette('text then a no-argument call without args', [
      jsonInteraction({
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'Let me check the time.' }, { functionCall: { name: 'now' } }] },
            finishReason: 'STOP',
          },
        ],
      }),
    ]);
    await withReplay(cassette, async (server) => {
      const turn = await modelFor(sdk, server).generate({ messages: USER, tools: TOOLS });
      expect(turn.content.map((part) => part.type)).toEqual(['text', 'tool_call']);
      expect(turn.content[0]).toEqual({ type: 'text', text: 'Let me check the time.' });
      expect(calls(turn.content)[0]?.input).toEqual({});
      expect(turn.stopReason.unified).toBe('tool_calls');
    });
  });
});
