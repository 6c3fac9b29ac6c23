import type { JsonObject } from '@toolcircuit/core';
import { translateSchema } from '@toolcircuit/schema';
import { describe, expect, it } from 'vitest';
import { OpenAIConfigurationError } from '../src/index.js';
import { CHAT_PATH, chatCompletion, jsonInteraction, syntheticCassette } from './support/cassettes.js';
import { rejectionOf, withChatReplay } from './support/replay.js';
import { CASE_FILE_TOOLS, caseFileRequest } from './support/scenario.js';

const finalAnswer = () =>
  syntheticCassette('openai-chat', 'one final text answer, to capture the outgoing request body', [
    jsonInteraction(CHAT_PATH, chatCompletion({ content: 'A-1234 is open; the list timed out.' })),
  ]);

async function sentBody(
  request = caseFileRequest(),
  overrides: Parameters<typeof withChatReplay>[2] = {},
): Promise<JsonObject> {
  return withChatReplay(
    finalAnswer(),
    async (model, server) => {
      await model.generate(request);
      expect(server.mismatches).toEqual([]);
      return server.received[0]?.body as JsonObject;
    },
    overrides,
  );
}

describe('Chat Completions request body', () => {
  it('matches the documented wire format for the shared case-file scenario', async () => {
    const body = await sentBody();
    expect(body).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": "You look up case files.",
            "role": "system",
          },
          {
            "content": "Find case A-1234 and list the open ones.",
            "role": "user",
          },
          {
            "content": "Looking both up.",
            "role": "assistant",
            "tool_calls": [
              {
                "function": {
                  "arguments": "{"numero":"A-1234"}",
                  "name": "chercher_dossier",
                },
                "id": "call_A",
                "type": "function",
              },
              {
                "function": {
                  "arguments": "{}",
                  "name": "lister_dossiers",
                },
                "id": "call_B",
                "type": "function",
              },
            ],
          },
          {
            "content": "A-1234: open, judge Martin.",
            "role": "tool",
            "tool_call_id": "call_A",
          },
          {
            "content": "Error: lister_dossiers timed out",
            "role": "tool",
            "tool_call_id": "call_B",
          },
        ],
        "model": "gpt-4o",
        "stream": false,
        "tools": [
          {
            "function": {
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
            },
            "type": "function",
          },
          {
            "function": {
              "description": "Lists the open case files.",
              "name": "lister_dossiers",
              "parameters": {
                "properties": {},
                "type": "object",
              },
            },
            "type": "function",
          },
        ],
      }
    `);
  });

  it('places results as consecutive tool messages right after the assistant message, in call order', async () => {
    const body = await sentBody();
    const messages = body['messages'] as JsonObject[];
    const assistantIndex = messages.findIndex((message) => message['role'] === 'assistant');
    const callIds = ((messages[assistantIndex]?.['tool_calls'] ?? []) as JsonObject[]).map((call) => call['id']);
    const following = messages.slice(assistantIndex + 1);
    expect(following.map((message) => message['role'])).toEqual(['tool', 'tool']);
    expect(following.map((message) => message['tool_call_id'])).toEqual(callIds);
  });

  it('sends the schemas the translator produced, for the openai target', async () => {
    const body = await sentBody();
    const tools = body['tools'] as { function: JsonObject }[];
    expect(tools.map((tool) => tool.function['parameters'])).toEqual(
      CASE_FILE_TOOLS.map((tool) => translateSchema(tool.inputSchema, 'openai').schema),
    );
  });

  it('in strict mode marks each function strict that strict mode keeps whole, with the openai-strict translation', async () => {
    const body = await sentBody(caseFileRequest(), { strict: true });
    const tools = body['tools'] as { function: JsonObject }[];
    // lister_dossiers only omits additionalProperties: keys nobody declared are no input, so strict closes it.
    expect(tools.map((tool) => tool.function['strict'])).toEqual([true, true]);
    expect(tools.map((tool) => tool.function['parameters'])).toEqual(
      CASE_FILE_TOOLS.map((tool) => translateSchema(tool.inputSchema, 'openai-strict', { fallback: false }).schema),
    );
    // With keepUndeclaredKeys those keys are inputs: strict would lose them, so that tool goes without
    // `strict` (false is the default) and with its faithful schema.
    const keep = await sentBody(caseFileRequest(), { strict: true, keepUndeclaredKeys: true });
    const kept = keep['tools'] as { function: JsonObject }[];
    expect(kept.map((tool) => tool.function['strict'])).toEqual([true, undefined]);
    const lister = CASE_FILE_TOOLS[1]?.inputSchema ?? {};
    expect(kept[1]?.function['parameters']).toEqual(translateSchema(lister, 'openai').schema);
  });

  it('maps tool_choice strings and a named tool, and the parallel-call switch', async () => {
    const named = await sentBody(
      caseFileRequest({ toolChoice: { type: 'tool', name: 'lister_dossiers' }, parallelToolCalls: false }),
    );
    expect(named['tool_choice']).toEqual({ type: 'function', function: { name: 'lister_dossiers' } });
    expect(named['parallel_tool_calls']).toBe(false);
    for (const choice of ['auto', 'none', 'required'] as const) {
      const body = await sentBody(caseFileRequest({ toolChoice: choice }));
      expect(body['tool_choice']).toBe(choice);
      expect(body).not.toHaveProperty('parallel_tool_calls');
    }
  });

  it('sends neither tools, tool_choice nor parallel_tool_calls when the catalogue is empty', async () => {
    const body = await sentBody(
      caseFileRequest({
        tools: [],
        toolChoice: 'none',
        parallelToolCalls: true,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    );
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('parallel_tool_calls');
  });

  it('refuses a named tool choice that is not in the catalogue, before any traffic', async () => {
    await withChatReplay(finalAnswer(), async (model, server) => {
      const error = await rejectionOf(
        model.generate(caseFileRequest({ toolChoice: { type: 'tool', name: 'supprimer' } })),
      );
      expect(error).toBeInstanceOf(OpenAIConfigurationError);
      expect(error).toMatchObject({ kind: 'configuration', code: 'unknown_tool_choice', field: 'toolChoice' });
      expect(server.received).toHaveLength(0);
    });
  });

  it('uses the developer role when asked, max_completion_tokens and temperature', async () => {
    const body = await sentBody(caseFileRequest({ maxOutputTokens: 256, temperature: 0.2 }), {
      systemRole: 'developer',
    });
    expect((body['messages'] as JsonObject[])[0]).toEqual({ role: 'developer', content: 'You look up case files.' });
    expect(body['max_completion_tokens']).toBe(256);
    expect(body).not.toHaveProperty('max_tokens');
    expect(body['temperature']).toBe(0.2);
  });

  it('merges its own options bag into the body and ignores other providers’ bags', async () => {
    const body = await sentBody(
      caseFileRequest({
        providerOptions: {
          openai: { service_tier: 'flex', reasoning_effort: 'low' },
          anthropic: { thinking: { type: 'enabled' } },
        },
      }),
    );
    expect(body['service_tier']).toBe('flex');
    expect(body['reasoning_effort']).toBe('low');
    expect(body).not.toHaveProperty('thinking');
    expect(body['stream']).toBe(false);
  });

  it('echoes "{}" for a call whose arguments were not JSON, never the invalid text', async () => {
    const request = caseFileRequest({
      messages: [
        { role: 'user', content: 'Find A-1234' },
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_call',
              id: 'call_bad',
              name: 'chercher_dossier',
              input: undefined,
              rawInput: '{"numero": "A-12',
              inputError: 'arguments are not valid JSON',
            },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool_result',
              callId: 'call_bad',
              name: 'chercher_dossier',
              content: 'invalid input',
              isError: true,
            },
          ],
        },
      ],
    });
    const body = await sentBody(request);
    const assistant = (body['messages'] as JsonObject[])[2] as {
      content: unknown;
      tool_calls: { function: JsonObject }[];
    };
    expect(assistant.content).toBeNull();
    expect(assistant.tool_calls[0]?.function['arguments']).toBe('{}');
  });

  it('is an OpenAI-compatible client under another provider name: its bag, its metadata key, max_tokens', async () => {
    const cassette = finalAnswer();
    await withChatReplay(
      cassette,
      async (model, server) => {
        expect(model.provider).toBe('ollama');
        const turn = await model.generate(
          caseFileRequest({
            maxOutputTokens: 64,
            providerOptions: { ollama: { keep_alive: '5m' }, openai: { service_tier: 'flex' } },
          }),
        );
        const body = server.received[0]?.body as JsonObject;
        expect(body['keep_alive']).toBe('5m');
        expect(body).not.toHaveProperty('service_tier');
        expect(body['max_tokens']).toBe(64);
        expect(body).not.toHaveProperty('max_completion_tokens');
        expect(turn.providerMetadata).toHaveProperty('ollama');
        expect(turn.providerMetadata).not.toHaveProperty('openai');
      },
      { provider: 'ollama', model: 'qwen3:8b' },
    );
  });
});
