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

  it('reads thought parts as reasoning and sends every signature and thought back unchanged', async () => {
    const cassette = syntheticCassette('thought summary + call with signature, then the round trip', [
      jsonInteraction({
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { text: '**Checking the clock**', thought: true },
                { functionCall: { name: 'now', args: {} }, thoughtSignature: 'U2lnLW5vdw==' },
              ],
            },
            finishReason: 'STOP',
          },
        ],
        usageMetadata: {
          promptTokenCount: 10,
          candidatesTokenCount: 3,
          thoughtsTokenCount: 40,
          cachedContentTokenCount: 4,
        },
        responseId: 'thinking-1',
      }),
      jsonInteraction({
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'It is noon.', thoughtSignature: 'U2lnLXRleHQ=' }] },
            finishReason: 'STOP',
          },
        ],
      }),
      jsonInteraction({
        candidates: [{ content: { role: 'model', parts: [{ text: 'Bye.' }] }, finishReason: 'STOP' }],
      }),
    ]);
    await withReplay(cassette, async (server) => {
      const model = modelFor(sdk, server);
      const first = await model.generate({ messages: USER, tools: TOOLS });
      expect(first.content[0]).toEqual({
        type: 'reasoning',
        text: '**Checking the clock**',
        providerMetadata: { google: { thought: true } },
      });
      expect(first.usage).toMatchObject({ outputTokens: 43, reasoningTokens: 40, cachedInputTokens: 4 });
      const call = calls(first.content)[0];
      if (call === undefined) throw new Error('expected a call');
      const history: Message[] = [
        ...USER,
        { role: 'assistant', content: first.content },
        {
          role: 'tool',
          content: [{ type: 'tool_result', callId: call.id, name: 'now', content: '12:00', isError: false }],
        },
      ];
      const second = await model.generate({ messages: history, tools: TOOLS });
      expect(second.content).toEqual([
        { type: 'text', text: 'It is noon.', providerMetadata: { google: { thoughtSignature: 'U2lnLXRleHQ=' } } },
      ]);
      expect(server.received[1]?.body).toMatchObject({
        contents: [
          { role: 'user' },
          {
            role: 'model',
            parts: [
              { text: '**Checking the clock**', thought: true },
              { functionCall: { name: 'now', args: {} }, thoughtSignature: 'U2lnLW5vdw==' },
            ],
          },
          { parts: [{ functionResponse: { name: 'now', response: { output: '12:00' } } }] },
        ],
      });
      await model.generate({ messages: [...history, { role: 'assistant', content: second.content }], tools: TOOLS });
      expect(server.received[2]?.body).toMatchObject({
        contents: [{}, {}, {}, { role: 'model', parts: [{ text: 'It is noon.', thoughtSignature: 'U2lnLXRleHQ=' }] }],
      });
    });
  });

  it('keeps an id Gemini gave, and sends it back on the call and on its result', async () => {
    const cassette = syntheticCassette('a call that carries a provider id (Gemini 3 sometimes sends one)', [
      jsonInteraction({
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { id: 'fc-77', name: 'get_location', args: { loc_name: 'Lyon' } } }],
            },
            finishReason: 'STOP',
          },
        ],
      }),
      jsonInteraction({
        candidates: [{ content: { role: 'model', parts: [{ text: 'Lyon is in France.' }] }, finishReason: 'STOP' }],
      }),
    ]);
    await withReplay(cassette, async (server) => {
      const model = modelFor(sdk, server);
      const first = await model.generate({ messages: USER, tools: TOOLS });
      expect(calls(first.content)).toEqual([
        {
          type: 'tool_call',
          id: 'fc-77',
          name: 'get_location',
          input: { loc_name: 'Lyon' },
          providerMetadata: { google: { idSynthesized: false } },
        },
      ]);
      await model.generate({
        messages: [
          ...USER,
          { role: 'assistant', content: first.content },
          {
            role: 'tool',
            content: [
              { type: 'tool_result', callId: 'fc-77', name: 'get_location', content: '45.7,4.8', isError: false },
            ],
          },
        ],
        tools: TOOLS,
      });
      expect(server.received[1]?.body).toMatchObject({
        contents: [
          {},
          { role: 'model', parts: [{ functionCall: { id: 'fc-77', name: 'get_location' } }] },
          { parts: [{ functionResponse: { id: 'fc-77', name: 'get_location', response: { output: '45.7,4.8' } } }] },
        ],
      });
    });
  });

  it('carries unicode through arguments and text unchanged', async () => {
    const args = { loc_name: 'Zürich — 東京 🚀', note: 'naïve "quoted" \\ back' };
    const cassette = syntheticCassette('unicode in text and args', [
      jsonInteraction({
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'Voilà ✓' }, { functionCall: { name: 'get_location', args } }] },
            finishReason: 'STOP',
          },
        ],
      }),
    ]);
    await withReplay(cassette, async (server) => {
      const turn = await modelFor(sdk, server).generate({ messages: USER, tools: TOOLS });
      expect(turn.content[0]).toEqual({ type: 'text', text: 'Voilà ✓' });
      expect(calls(turn.content)[0]?.input).toEqual(args);
    });
  });

  it('without a responseId, seeds ids from the request: same request same ids, longer history new ids', async () => {
    const response = {
      candidates: [
        { content: { role: 'model', parts: [{ functionCall: { name: 'now', args: {} } }] }, finishReason: 'STOP' },
      ],
    };
    const cassette = syntheticCassette('the same call answered three times, without responseId', [
      jsonInteraction(response),
      jsonInteraction(response),
      jsonInteraction(response),
    ]);
    await withReplay(cassette, async (server) => {
      const model = modelFor(sdk, server);
      const a = calls((await model.generate({ messages: USER, tools: TOOLS })).content)[0];
      const b = calls((await model.generate({ messages: USER, tools: TOOLS })).content)[0];
      const longer: Message[] = [...USER, { role: 'assistant', content: [{ type: 'text', text: 'Sure.' }] }, ...USER];
      const c = calls((await model.generate({ messages: longer, tools: TOOLS })).content)[0];
      expect(a?.id).toBe(b?.id);
      expect(c?.id).not.toBe(a?.id);
    });
  });

  it.each([
    ['MAX_TOKENS', { unified: 'max_tokens', raw: 'MAX_TOKENS' }],
    ['SAFETY', { unified: 'content_filter', raw: 'SAFETY' }],
    ['RECITATION', { unified: 'content_filter', raw: 'RECITATION' }],
    ['MALFORMED_FUNCTION_CALL', { unified: 'malformed_tool_call', raw: 'MALFORMED_FUNCTION_CALL' }],
    ['OTHER', { unified: 'other', raw: 'OTHER' }],
  ])('maps finishReason %s', async (finishReason, expected) => {
    const cassette = syntheticCassette(`a turn ending with ${finishReason} and no content`, [
      jsonInteraction({ candidates: [{ content: { role: 'model', parts: [] }, finishReason }] }),
    ]);
    await withReplay(cassette, async (server) => {
      const turn = await modelFor(sdk, server).generate({ messages: USER, tools: TOOLS });
      expect(turn.stopReason).toEqual(expected);
      expect(turn.content).toEqual([]);
    });
  });

  it('reports a blocked prompt (no candidate, promptFeedback.blockReason) as content_filter', async () => {
    const cassette = syntheticCassette('prompt blocked before any candidate', [
      jsonInteraction({
        promptFeedback: { blockReason: 'SAFETY' },
        usageMetadata: { promptTokenCount: 8, totalTokenCount: 8 },
      }),
    ]);
    await withReplay(cassette, async (server) => {
      const turn = await modelFor(sdk, server).generate({ messages: USER, tools: TOOLS });
      expect(turn.stopReason).toEqual({ unified: 'content_filter', raw: 'blockReason:SAFETY' });
      expect(turn.usage.inputTokens).toBe(8);
    });
  });

  it('restores values the schema translation declared as JSON text to the original shape', async () => {
    // `{}` (any JSON value) cannot be said in Gemini's schema subset: it is declared as a JSON-text string.
    const tools: readonly ToolDeclaration[] = [
      { name: 'save', description: 'Save a value.', inputSchema: { type: 'object', properties: { value: {} } } },
    ];
    const cassette = syntheticCassette('a call whose argument is JSON text, as the translated schema asks', [
      jsonInteraction({
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { name: 'save', args: { value: '{"n":[1,2]}' } } }] },
            finishReason: 'STOP',
          },
        ],
      }),
    ]);
    await withReplay(cassette, async (server) => {
      const turn = await modelFor(sdk, server).generate({ messages: USER, tools });
      expect(JSON.stringify(server.received[0]?.body)).toContain('written as JSON text');
      expect(calls(turn.content)[0]?.input).toEqual({ value: { n: [1, 2] } });
    });
  });
});
