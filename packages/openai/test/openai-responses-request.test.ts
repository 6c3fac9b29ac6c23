import type { JsonObject, Message } from '@toolcircuit/core';
import { translateSchema } from '@toolcircuit/schema';
import { describe, expect, it } from 'vitest';
import { OpenAIConfigurationError } from '../src/index.js';
import {
  jsonInteraction,
  messageItem,
  RESPONSES_PATH,
  responsesResponse,
  syntheticCassette,
} from './support/cassettes.js';
import { rejectionOf, withResponsesReplay } from './support/replay.js';
import { CASE_FILE_TOOLS, caseFileRequest } from './support/scenario.js';

const finalAnswer = () =>
  syntheticCassette('openai-responses', 'one final message, to capture the outgoing request body', [
    jsonInteraction(RESPONSES_PATH, responsesResponse({ output: [messageItem('msg_1', 'A-1234 is open.')] })),
  ]);

async function sentBody(
  request = caseFileRequest(),
  overrides: Parameters<typeof withResponsesReplay>[2] = {},
): Promise<JsonObject> {
  return withResponsesReplay(
    finalAnswer(),
    async (model, server) => {
      await model.generate(request);
      expect(server.mismatches).toEqual([]);
      return server.received[0]?.body as JsonObject;
    },
    overrides,
  );
}

describe('Responses request body', () => {
  it('matches the documented wire format for the shared case-file scenario', async () => {
    expect(await sentBody()).toMatchInlineSnapshot(`
      {
        "input": [
          {
            "content": "Find case A-1234 and list the open ones.",
            "role": "user",
          },
          {
            "content": "Looking both up.",
            "role": "assistant",
          },
          {
            "arguments": "{"numero":"A-1234"}",
            "call_id": "call_A",
            "name": "chercher_dossier",
            "type": "function_call",
          },
          {
            "arguments": "{}",
            "call_id": "call_B",
            "name": "lister_dossiers",
            "type": "function_call",
          },
          {
            "call_id": "call_A",
            "output": "A-1234: open, judge Martin.",
            "type": "function_call_output",
          },
          {
            "call_id": "call_B",
            "output": "Error: lister_dossiers timed out",
            "type": "function_call_output",
          },
        ],
        "instructions": "You look up case files.",
        "model": "gpt-4o",
        "store": false,
        "stream": false,
        "tools": [
          {
            "description": "Looks up one case file by its number.",
            "name": "chercher_dossier",
            "parameters": {
              "additionalProperties": false,
              "properties": {
                "numero": {
                  "pattern": "^[A-Z]-[0-9]{4}$",
                  "type": "string",
                },
              },
              "required": [
                "numero",
              ],
              "type": "object",
            },
            "strict": false,
            "type": "function",
          },
          {
            "description": "Lists the open case files.",
            "name": "lister_dossiers",
            "parameters": {
              "properties": {},
              "type": "object",
            },
            "strict": false,
            "type": "function",
          },
        ],
      }
    `);
  });

  it('re-sends each call as a function_call item and answers it with a function_call_output, in call order', async () => {
    const input = (await sentBody())['input'] as JsonObject[];
    const calls = input.filter((item) => item['type'] === 'function_call').map((item) => item['call_id']);
    const outputs = input.filter((item) => item['type'] === 'function_call_output').map((item) => item['call_id']);
    expect(calls).toEqual(['call_A', 'call_B']);
    expect(outputs).toEqual(calls);
    const lastCall = input.findIndex((item) => item['call_id'] === 'call_B' && item['type'] === 'function_call');
    expect(input.slice(lastCall + 1).map((item) => item['type'])).toEqual([
      'function_call_output',
      'function_call_output',
    ]);
  });

  it('sends flat function tools with strict always present, from the translator', async () => {
    for (const strict of [false, true]) {
      const tools = (await sentBody(caseFileRequest(), { strict }))['tools'] as JsonObject[];
      // In strict mode lister_dossiers, which only omits additionalProperties, is closed and stays strict.
      expect(tools.map((tool) => tool['strict'])).toEqual([strict, strict]);
      expect(tools.map((tool) => tool['parameters'])).toEqual(
        CASE_FILE_TOOLS.map((tool) => translateSchema(tool.inputSchema, strict ? 'openai-strict' : 'openai').schema),
      );
      expect(tools.every((tool) => tool['type'] === 'function' && !('function' in tool))).toBe(true);
    }
    // With keepUndeclaredKeys its undeclared keys are inputs strict would lose: it goes with strict: false.
    const keep = (await sentBody(caseFileRequest(), { strict: true, keepUndeclaredKeys: true }))[
      'tools'
    ] as JsonObject[];
    expect(keep.map((tool) => tool['strict'])).toEqual([true, false]);
  });

  it('maps tool choice, parallel calls, output limit and temperature', async () => {
    const body = await sentBody(
      caseFileRequest({
        toolChoice: { type: 'tool', name: 'chercher_dossier' },
        parallelToolCalls: false,
        maxOutputTokens: 300,
        temperature: 0,
      }),
    );
    expect(body['tool_choice']).toEqual({ type: 'function', name: 'chercher_dossier' });
    expect(body['parallel_tool_calls']).toBe(false);
    expect(body['max_output_tokens']).toBe(300);
    expect(body['temperature']).toBe(0);
    const required = await sentBody(caseFileRequest({ toolChoice: 'required' }));
    expect(required['tool_choice']).toBe('required');
  });

  it('refuses a named tool choice outside the catalogue before any traffic', async () => {
    await withResponsesReplay(finalAnswer(), async (model, server) => {
      const error = await rejectionOf(model.generate(caseFileRequest({ toolChoice: { type: 'tool', name: 'nope' } })));
      expect(error).toBeInstanceOf(OpenAIConfigurationError);
      expect(server.received).toHaveLength(0);
    });
  });

  it('is stateless by default, asks for encrypted reasoning only for reasoning models, and honours overrides', async () => {
    const plain = await sentBody();
    expect(plain['store']).toBe(false);
    expect(plain).not.toHaveProperty('include');
    const reasoning = await sentBody(caseFileRequest(), { model: 'gpt-5-mini' });
    expect(reasoning['include']).toEqual(['reasoning.encrypted_content']);
    const chat = await sentBody(caseFileRequest(), { model: 'gpt-5-chat-latest' });
    expect(chat).not.toHaveProperty('include');
    const stored = await sentBody(caseFileRequest(), { model: 'o4-mini', store: true });
    expect(stored['store']).toBe(true);
    expect(stored).not.toHaveProperty('include');
    const bag = await sentBody(
      caseFileRequest({ providerOptions: { openai: { reasoning: { effort: 'low' }, store: true } } }),
    );
    expect(bag['reasoning']).toEqual({ effort: 'low' });
    expect(bag['store']).toBe(true);
    expect(bag['stream']).toBe(false);
  });

  it('sends reasoning items back whole and in place, message items with their id, calls with their fc id', async () => {
    const reasoningItem = {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'Plan the lookup.' }],
      encrypted_content: 'gAAAAAB-opaque-blob',
    };
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'Find A-1234' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Plan the lookup.', providerMetadata: { openai: { item: reasoningItem } } },
          { type: 'text', text: 'Part one. ', providerMetadata: { openai: { itemId: 'msg_1', phase: 'commentary' } } },
          { type: 'text', text: 'Part two.', providerMetadata: { openai: { itemId: 'msg_1', phase: 'commentary' } } },
          {
            type: 'tool_call',
            id: 'call_A',
            name: 'chercher_dossier',
            input: { numero: 'A-1234' },
            providerMetadata: { openai: { itemId: 'fc_1' } },
          },
          { type: 'reasoning', text: 'from another provider', providerMetadata: { anthropic: { signature: 'x' } } },
        ],
      },
      {
        role: 'tool',
        content: [{ type: 'tool_result', callId: 'call_A', name: 'chercher_dossier', content: 'open', isError: false }],
      },
    ];
    const input = (await sentBody(caseFileRequest({ messages })))['input'] as JsonObject[];
    expect(input).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'Find A-1234' }] },
      reasoningItem,
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        phase: 'commentary',
        content: [
          { type: 'output_text', text: 'Part one. ', annotations: [] },
          { type: 'output_text', text: 'Part two.', annotations: [] },
        ],
      },
      {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_A',
        name: 'chercher_dossier',
        arguments: '{"numero":"A-1234"}',
      },
      { type: 'function_call_output', call_id: 'call_A', output: 'open' },
    ]);
  });
});
