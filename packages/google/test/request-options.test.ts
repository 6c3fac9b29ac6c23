import type { JsonValue, Message, ModelRequest, ToolDeclaration } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { GoogleConfigurationError } from '../src/index.js';
import { CASE_FILE_TOOLS, CASE_FILE_USER } from './support/case-files.js';
import { jsonInteraction, SDKS, type Sdk, syntheticCassette } from './support/gemini-cassette.js';
import { modelFor, withReplay } from './support/replay.js';

const TEXT_RESPONSE = { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] };

/** Sends one request and returns the body the server received. */
async function sentBody(
  sdk: Sdk,
  request: ModelRequest,
  extra: Parameters<typeof modelFor>[2] = {},
): Promise<JsonValue> {
  const cassette = syntheticCassette('plain text answer, to capture the request body', [
    jsonInteraction(TEXT_RESPONSE),
  ]);
  return withReplay(cassette, async (server) => {
    await modelFor(sdk, server, extra).generate(request);
    expect(server.mismatches).toEqual([]);
    return server.received[0]?.body ?? null;
  });
}

function field(body: JsonValue, key: string): JsonValue | undefined {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? body[key] : undefined;
}

describe.each(SDKS)('request options over %s', (sdk) => {
  it.each([
    ['auto', { functionCallingConfig: { mode: 'AUTO' } }],
    ['none', { functionCallingConfig: { mode: 'NONE' } }],
    ['required', { functionCallingConfig: { mode: 'ANY' } }],
    [
      { type: 'tool', name: 'lister_dossiers' },
      { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['lister_dossiers'] } },
    ],
  ] as const)('maps toolChoice %j to toolConfig', async (toolChoice, expected) => {
    const body = await sentBody(sdk, { messages: [CASE_FILE_USER], tools: CASE_FILE_TOOLS, toolChoice });
    expect(field(body, 'toolConfig')).toEqual(expected);
  });

  it('sends no toolConfig without a tool choice, and no tools at all for an empty catalogue', async () => {
    expect(
      field(await sentBody(sdk, { messages: [CASE_FILE_USER], tools: CASE_FILE_TOOLS }), 'toolConfig'),
    ).toBeUndefined();
    const bare = await sentBody(sdk, { messages: [CASE_FILE_USER], tools: [], toolChoice: 'required' });
    expect(field(bare, 'tools')).toBeUndefined();
    expect(field(bare, 'toolConfig')).toBeUndefined();
  });

  it('refuses a named tool choice that is not declared, before sending anything', async () => {
    const cassette = syntheticCassette('never served: the request must not leave', [jsonInteraction(TEXT_RESPONSE)]);
    await withReplay(cassette, async (server) => {
      const request = {
        messages: [CASE_FILE_USER],
        tools: CASE_FILE_TOOLS,
        toolChoice: { type: 'tool', name: 'missing' },
      } as const;
      await expect(modelFor(sdk, server).generate(request)).rejects.toThrow(GoogleConfigurationError);
      expect(server.received).toHaveLength(0);
    });
  });

  it('ignores parallelToolCalls: false (Gemini has no such switch) rather than sending an unknown field', async () => {
    const body = await sentBody(sdk, { messages: [CASE_FILE_USER], tools: CASE_FILE_TOOLS, parallelToolCalls: false });
    expect(JSON.stringify(body)).not.toMatch(/parallel/i);
  });

  it('puts maxOutputTokens and temperature in generationConfig, and merges providerOptions.google into the body', async () => {
    const body = await sentBody(sdk, {
      messages: [CASE_FILE_USER],
      tools: [],
      maxOutputTokens: 256,
      temperature: 0.2,
      providerOptions: {
        google: {
          generationConfig: { thinkingConfig: { thinkingBudget: 0 } },
          safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
        },
        anthropic: { thinking: { type: 'enabled' } },
      },
    });
    expect(field(body, 'generationConfig')).toEqual({
      temperature: 0.2,
      maxOutputTokens: 256,
      thinkingConfig: { thinkingBudget: 0 },
    });
    expect(field(body, 'safetySettings')).toEqual([{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }]);
    expect(JSON.stringify(body)).not.toContain('thinking":{"type');
  });

  it('joins the request system text and system messages into systemInstruction', async () => {
    const messages: Message[] = [{ role: 'system', content: 'Answer in French.' }, CASE_FILE_USER];
    const body = await sentBody(sdk, { system: 'You look up case files.', messages, tools: [] });
    expect(field(field(body, 'systemInstruction') ?? null, 'parts')).toEqual([
      { text: 'You look up case files.\n\nAnswer in French.' },
    ]);
    expect(field(body, 'contents')).toEqual([
      { role: 'user', parts: [{ text: 'Open case A-1234, and list the others.' }] },
    ]);
  });

  it('sends a history from another provider without its ids and without its reasoning', async () => {
    const messages: Message[] = [
      CASE_FILE_USER,
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'I should search.', providerMetadata: { anthropic: { signature: 'abc' } } },
          { type: 'tool_call', id: 'toolu_01', name: 'chercher_dossier', input: { numero: 'A-1234' } },
          // A call whose arguments could not be decoded (OpenAI can send such): Gemini gets `{}`.
          {
            type: 'tool_call',
            id: 'call_02',
            name: 'lister_dossiers',
            input: undefined,
            rawInput: '{"x',
            inputError: 'bad JSON',
          },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool_result', callId: 'call_02', name: 'lister_dossiers', content: 'invalid input', isError: true },
          {
            type: 'tool_result',
            callId: 'toolu_01',
            name: 'chercher_dossier',
            content: [{ type: 'json', value: { status: 'open' } }],
            isError: false,
          },
        ],
      },
    ];
    const body = await sentBody(sdk, { messages, tools: CASE_FILE_TOOLS });
    const contents = field(body, 'contents');
    expect(Array.isArray(contents) ? contents.slice(1) : contents).toEqual([
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'chercher_dossier', args: { numero: 'A-1234' } } },
          { functionCall: { name: 'lister_dossiers', args: {} } },
        ],
      },
      {
        // Put back in call order, whatever order the results came in.
        role: sdk === 'genai' ? 'user' : 'function',
        parts: [
          { functionResponse: { name: 'chercher_dossier', response: { output: { status: 'open' } } } },
          { functionResponse: { name: 'lister_dossiers', response: { error: 'invalid input' } } },
        ],
      },
    ]);
  });
});

describe('schema targets', () => {
  const tools: readonly ToolDeclaration[] = CASE_FILE_TOOLS;

  it.each(SDKS)('declares parametersJsonSchema (real JSON Schema) with gemini-json-schema over %s', async (sdk) => {
    const body = await sentBody(sdk, { messages: [CASE_FILE_USER], tools }, { schemaTarget: 'gemini-json-schema' });
    const declarations = field((field(body, 'tools') as JsonValue[])[0] ?? null, 'functionDeclarations') as JsonValue[];
    expect(declarations[0]).toEqual({
      name: 'chercher_dossier',
      description: 'Find one case file by its number.',
      parametersJsonSchema: {
        type: 'object',
        properties: { numero: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' } },
        required: ['numero'],
        additionalProperties: false,
      },
    });
    // `{ type: 'object', properties: {} }` still accepts undeclared keys: declared, so the model may send them.
    expect(declarations[1]).toEqual({
      name: 'lister_dossiers',
      description: 'List every case file.',
      parametersJsonSchema: { type: 'object', properties: {} },
    });
  });
});

describe.each(SDKS)('tool names over %s', (sdk) => {
  it('declares a name Gemini accepts, and maps it back on calls and forth in history', async () => {
    const tools: readonly ToolDeclaration[] = [
      {
        name: 'dossier chercher',
        description: 'Find a case file.',
        inputSchema: { type: 'object', properties: { n: { type: 'string' } } },
      },
    ];
    const cassette = syntheticCassette('a call to a renamed tool, then the round trip', [
      jsonInteraction({
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { name: 'dossier_chercher', args: { n: 'A-1' } } }] },
            finishReason: 'STOP',
          },
        ],
      }),
      jsonInteraction(TEXT_RESPONSE),
    ]);
    await withReplay(cassette, async (server) => {
      const model = modelFor(sdk, server);
      const turn = await model.generate({ messages: [CASE_FILE_USER], tools });
      const call = turn.content[0];
      expect(call).toMatchObject({ type: 'tool_call', name: 'dossier chercher', input: { n: 'A-1' } });
      if (call?.type !== 'tool_call') throw new Error('expected a call');
      await model.generate({
        messages: [
          CASE_FILE_USER,
          { role: 'assistant', content: turn.content },
          {
            role: 'tool',
            content: [{ type: 'tool_result', callId: call.id, name: call.name, content: 'open', isError: false }],
          },
        ],
        tools,
      });
      const [first, second] = server.received.map((request) => JSON.stringify(request.body));
      expect(first).toContain('"name":"dossier_chercher"');
      expect(second).not.toContain('dossier chercher');
      expect(second).toContain('"functionResponse":{"name":"dossier_chercher"');
    });
  });
});
