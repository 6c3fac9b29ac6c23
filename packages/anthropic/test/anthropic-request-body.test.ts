import { describe, expect, it } from 'vitest';
import { prepareAnthropicTools } from '../src/index.js';
import { json, message, replay, syntheticCassette } from './replay.js';
import { CASE_FILE_REQUEST, CASE_FILE_TOOLS } from './scenario.js';

const ANSWER = json(message([{ type: 'text', text: 'A-1234 is open.' }], 'end_turn'));

async function sentBody(request: Parameters<Awaited<ReturnType<typeof replay>>['model']['generate']>[0]) {
  const { model, server } = await replay(syntheticCassette('final text answer for request-body tests', [ANSWER]));
  await model.generate(request);
  expect(server.mismatches).toEqual([]);
  return server.received[0]?.body;
}

describe('outgoing request body (through the SDK to the replay server)', () => {
  it('shared scenario: system on top, two tools, tool_use turn, ONE user message of tool_result blocks', async () => {
    // Checked against wire-formats.md: tools [{name, description, input_schema}], top-level system,
    // results in one user message with tool_use_id / content / is_error, in call order.
    expect(await sentBody(CASE_FILE_REQUEST)).toMatchInlineSnapshot(`
      {
        "max_tokens": 4096,
        "messages": [
          {
            "content": [
              {
                "text": "Open case A-1234 and list the others.",
                "type": "text",
              },
            ],
            "role": "user",
          },
          {
            "content": [
              {
                "id": "toolu_01",
                "input": {
                  "numero": "A-1234",
                },
                "name": "chercher_dossier",
                "type": "tool_use",
              },
              {
                "id": "toolu_02",
                "input": {},
                "name": "lister_dossiers",
                "type": "tool_use",
              },
            ],
            "role": "assistant",
          },
          {
            "content": [
              {
                "content": "{"numero":"A-1234","statut":"ouvert"}",
                "is_error": false,
                "tool_use_id": "toolu_01",
                "type": "tool_result",
              },
              {
                "content": "database unavailable",
                "is_error": true,
                "tool_use_id": "toolu_02",
                "type": "tool_result",
              },
            ],
            "role": "user",
          },
        ],
        "model": "claude-sonnet-4-6",
        "stream": false,
        "system": "You look up case files.",
        "tools": [
          {
            "description": "Find a case file by its number.",
            "input_schema": {
              "additionalProperties": false,
              "properties": {
                "numero": {
                  "description": "(pattern: "^[A-Z]-[0-9]{4}$")",
                  "type": "string",
                },
              },
              "required": [
                "numero",
              ],
              "type": "object",
            },
            "name": "chercher_dossier",
          },
          {
            "description": "List every open case file.",
            "input_schema": {
              "properties": {},
              "type": "object",
            },
            "name": "lister_dossiers",
          },
        ],
      }
    `);
  });
});

type Body = Record<string, unknown> & { messages: { role: string; content: Record<string, unknown>[] }[] };

async function body(request: Parameters<typeof sentBody>[0]): Promise<Body> {
  return (await sentBody(request)) as Body;
}

describe('history conversion', () => {
  it('merges consecutive same-role messages and puts tool_result blocks before a following user text', async () => {
    const sent = await body({
      messages: [
        { role: 'user', content: 'first' },
        { role: 'user', content: [{ type: 'text', text: 'second' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'toolu_a', name: 'lister_dossiers', input: {} }] },
        {
          role: 'tool',
          content: [
            { type: 'tool_result', callId: 'toolu_a', name: 'lister_dossiers', content: 'none', isError: false },
          ],
        },
        { role: 'user', content: 'and now?' },
      ],
      tools: CASE_FILE_TOOLS,
    });
    expect(sent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent.messages[0]?.content).toEqual([
      { type: 'text', text: 'first' },
      { type: 'text', text: 'second' },
    ]);
    expect(sent.messages[1]?.content.map((b) => b['type'])).toEqual(['text', 'tool_use']);
    expect(sent.messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_a', content: 'none', is_error: false },
      { type: 'text', text: 'and now?' },
    ]);
  });

  it('keeps tool_result blocks first even when a user text was placed before the tool message', async () => {
    const sent = await body({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'toolu_a', name: 'lister_dossiers', input: {} }] },
        { role: 'user', content: 'hurry' },
        {
          role: 'tool',
          content: [{ type: 'tool_result', callId: 'toolu_a', name: 'lister_dossiers', content: 'x', isError: false }],
        },
      ],
      tools: CASE_FILE_TOOLS,
    });
    expect(sent.messages[2]?.content.map((b) => b['type'])).toEqual(['tool_result', 'text']);
  });

  it('sends thinking and redacted_thinking back unchanged, before the tool_use, and drops unsigned reasoning', async () => {
    const sent = await body({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: [
            {
              type: 'reasoning',
              text: 'I should list.',
              providerMetadata: { anthropic: { signature: 'EqEECkYICxgC==' } },
            },
            { type: 'reasoning', text: '', providerMetadata: { anthropic: { data: 'EmwKAhgBEgy3va==' } } },
            { type: 'reasoning', text: 'from another provider', providerMetadata: { openai: { itemId: 'rs_1' } } },
            { type: 'tool_call', id: 'toolu_a', name: 'lister_dossiers', input: {} },
          ],
        },
        {
          role: 'tool',
          content: [{ type: 'tool_result', callId: 'toolu_a', name: 'lister_dossiers', content: 'x', isError: false }],
        },
      ],
      tools: CASE_FILE_TOOLS,
    });
    expect(sent.messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'I should list.', signature: 'EqEECkYICxgC==' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va==' },
      { type: 'tool_use', id: 'toolu_a', name: 'lister_dossiers', input: {} },
    ]);
  });

  it('sends {} for a call whose input could not be decoded, never the raw text', async () => {
    const sent = await body({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_call',
              id: 'toolu_cut',
              name: 'chercher_dossier',
              input: undefined,
              rawInput: '{"numero": "A-12',
              inputError: 'cut off',
            },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool_result',
              callId: 'toolu_cut',
              name: 'chercher_dossier',
              content: 'invalid input',
              isError: true,
            },
          ],
        },
      ],
      tools: CASE_FILE_TOOLS,
    });
    expect(sent.messages[1]?.content).toEqual([
      { type: 'tool_use', id: 'toolu_cut', name: 'chercher_dossier', input: {} },
    ]);
  });

  it('renders structured results as text blocks, keeps unicode, skips empty text, joins system messages', async () => {
    const sent = await body({
      system: 'You look up case files.',
      messages: [
        { role: 'system', content: 'Réponds en français.' },
        { role: 'user', content: 'Dossier « A-1234 » — état ? 🗂️' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: '' },
            { type: 'tool_call', id: 'toolu_u', name: 'chercher_dossier', input: { numero: 'É-0001' } },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool_result',
              callId: 'toolu_u',
              name: 'chercher_dossier',
              content: [
                { type: 'text', text: 'trouvé ✓' },
                { type: 'json', value: { statut: 'clôturé' } },
              ],
              isError: false,
            },
          ],
        },
      ],
      tools: CASE_FILE_TOOLS,
    });
    expect(sent['system']).toBe('You look up case files.\n\nRéponds en français.');
    expect(sent.messages[0]?.content).toEqual([{ type: 'text', text: 'Dossier « A-1234 » — état ? 🗂️' }]);
    expect(sent.messages[1]?.content).toEqual([
      { type: 'tool_use', id: 'toolu_u', name: 'chercher_dossier', input: { numero: 'É-0001' } },
    ]);
    expect(sent.messages[2]?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_u',
        content: [
          { type: 'text', text: 'trouvé ✓' },
          { type: 'text', text: '{"statut":"clôturé"}' },
        ],
        is_error: false,
      },
    ]);
  });
});

describe('tool_choice, parallel switch, limits and the options bag', () => {
  const base = { messages: [{ role: 'user' as const, content: 'go' }], tools: CASE_FILE_TOOLS };

  it.each([
    ['auto', true, { type: 'auto' }],
    ['none', true, { type: 'none' }],
    ['required', true, { type: 'any' }],
    ['auto', false, { type: 'auto', disable_parallel_tool_use: true }],
    ['required', false, { type: 'any', disable_parallel_tool_use: true }],
    ['none', false, { type: 'none' }],
  ] as const)('toolChoice %s, parallelToolCalls %s → %j', async (toolChoice, parallelToolCalls, expected) => {
    const sent = await body({ ...base, toolChoice, parallelToolCalls });
    expect(sent['tool_choice']).toEqual(expected);
  });

  it('maps a named tool and sends no tool_choice by default', async () => {
    expect((await body({ ...base, toolChoice: { type: 'tool', name: 'lister_dossiers' } }))['tool_choice']).toEqual({
      type: 'tool',
      name: 'lister_dossiers',
    });
    expect(await body(base)).not.toHaveProperty('tool_choice');
    expect((await body({ ...base, parallelToolCalls: false }))['tool_choice']).toEqual({
      type: 'auto',
      disable_parallel_tool_use: true,
    });
  });

  it('sends neither tools nor tool_choice when the catalogue is empty', async () => {
    const sent = await body({ messages: base.messages, tools: [], toolChoice: 'required' });
    expect(sent).not.toHaveProperty('tools');
    expect(sent).not.toHaveProperty('tool_choice');
  });

  it('refuses a named tool that is not in the request, before any traffic', async () => {
    const { model, server } = await replay(syntheticCassette('never served', [ANSWER]));
    await expect(
      model.generate({ ...base, toolChoice: { type: 'tool', name: 'effacer_dossier' } }),
    ).rejects.toMatchObject({
      kind: 'configuration',
      code: 'unknown_tool_choice',
    });
    expect(server.received).toHaveLength(0);
  });

  it('uses maxOutputTokens, temperature, and merges providerOptions.anthropic last (except stream)', async () => {
    const sent = await body({
      ...base,
      maxOutputTokens: 1024,
      temperature: 0.2,
      providerOptions: {
        anthropic: { thinking: { type: 'enabled', budget_tokens: 512 }, stream: true, metadata: { user_id: 'u-1' } },
        openai: { reasoning: { effort: 'low' } },
      },
    });
    expect(sent).toMatchObject({
      max_tokens: 1024,
      temperature: 0.2,
      thinking: { type: 'enabled', budget_tokens: 512 },
      metadata: { user_id: 'u-1' },
      stream: false,
    });
    expect(sent).not.toHaveProperty('reasoning');
  });

  it('defaults max_tokens to the model option', async () => {
    const { model, server } = await replay(syntheticCassette('final text', [ANSWER]), { maxTokens: 777 });
    await model.generate(base);
    expect(server.received[0]?.body).toMatchObject({ max_tokens: 777 });
  });

  it('translates a catalogue once per array identity', () => {
    const first = prepareAnthropicTools(CASE_FILE_TOOLS);
    expect(prepareAnthropicTools(CASE_FILE_TOOLS)).toBe(first);
    expect(prepareAnthropicTools([...CASE_FILE_TOOLS])).not.toBe(first);
    expect(prepareAnthropicTools([...CASE_FILE_TOOLS]).tools).toEqual(first.tools);
  });
});
