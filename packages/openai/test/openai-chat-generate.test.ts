import type { JsonObject, ToolCallPart } from '@toolcircuit/core';
import { toolCallsOf } from '@toolcircuit/core';
import { createToolNameMap, restoreStrictInput } from '@toolcircuit/schema';
import { describe, expect, it } from 'vitest';
import { CUT_OFF_ERROR } from '../src/index.js';
import {
  CHAT_PATH,
  type ChatCallFixture,
  chatCompletion,
  jsonInteraction,
  syntheticCassette,
} from './support/cassettes.js';
import { bodyOf, withChatReplay } from './support/replay.js';
import { CASE_FILE_TOOLS } from './support/scenario.js';

const ask = {
  system: 'You look up case files.',
  messages: [{ role: 'user' as const, content: 'Go' }],
  tools: CASE_FILE_TOOLS,
};

async function turnFor(
  response: Parameters<typeof chatCompletion>[0],
  overrides: Parameters<typeof withChatReplay>[2] = {},
  tools = CASE_FILE_TOOLS,
) {
  const cassette = syntheticCassette('openai-chat', 'one response shaped like the recorded gpt-4o tool-call bodies', [
    jsonInteraction(CHAT_PATH, chatCompletion(response)),
  ]);
  return withChatReplay(cassette, (model) => model.generate({ ...ask, tools }), overrides);
}

const call = (id: string, name: string, args: string): ChatCallFixture => ({ id, name, arguments: args });

describe('Chat Completions responses → neutral turn', () => {
  it('keeps text and two calls to the same tool, in order, with their ids', async () => {
    const turn = await turnFor({
      content: 'Je cherche les deux dossiers.',
      toolCalls: [
        call('call_1', 'chercher_dossier', '{"numero":"A-1234"}'),
        call('call_2', 'chercher_dossier', '{"numero":"B-0001"}'),
      ],
    });
    expect(turn.content).toEqual([
      { type: 'text', text: 'Je cherche les deux dossiers.' },
      { type: 'tool_call', id: 'call_1', name: 'chercher_dossier', input: { numero: 'A-1234' } },
      { type: 'tool_call', id: 'call_2', name: 'chercher_dossier', input: { numero: 'B-0001' } },
    ]);
    expect(turn.stopReason).toEqual({ unified: 'tool_calls', raw: 'tool_calls' });
    expect(turn.usage).toMatchObject({ inputTokens: 71, outputTokens: 46, totalTokens: 117 });
    expect(turn.providerMetadata?.['openai']).toEqual({
      responseId: 'chatcmpl-synthetic',
      model: 'gpt-4o-2024-08-06',
      systemFingerprint: 'fp_synthetic',
    });
  });

  it('reads empty and "{}" arguments of a parameterless tool as {}', async () => {
    const turn = await turnFor({
      toolCalls: [call('call_1', 'lister_dossiers', ''), call('call_2', 'lister_dossiers', '{}')],
    });
    expect(toolCallsOf(turn.content).map((part) => part.input)).toEqual([{}, {}]);
    expect(toolCallsOf(turn.content).every((part) => part.inputError === undefined)).toBe(true);
  });

  it('keeps unicode intact in text and arguments', async () => {
    const turn = await turnFor({
      content: 'Dossier « été » 📁',
      toolCalls: [call('call_u', 'chercher_dossier', '{"numero":"É-2024","note":"café ☕ \\u00e9"}')],
    });
    expect(turn.content[0]).toEqual({ type: 'text', text: 'Dossier « été » 📁' });
    expect(toolCallsOf(turn.content)[0]?.input).toEqual({ numero: 'É-2024', note: 'café ☕ é' });
  });

  it('turns invalid JSON arguments into rawInput + inputError with input undefined', async () => {
    const turn = await turnFor({ toolCalls: [call('call_bad', 'chercher_dossier', '{"numero": "A-1234"')] });
    const part = toolCallsOf(turn.content)[0] as ToolCallPart;
    expect(part.input).toBeUndefined();
    expect(part.rawInput).toBe('{"numero": "A-1234"');
    expect(part.inputError).toMatch(/not valid JSON/);
  });

  it('marks the last call as cut off when the output limit stopped the turn', async () => {
    const turn = await turnFor({
      toolCalls: [
        call('call_1', 'chercher_dossier', '{"numero":"A-1234"}'),
        call('call_2', 'chercher_dossier', '{"numero":"B-'),
      ],
      finishReason: 'length',
    });
    expect(turn.stopReason).toEqual({ unified: 'max_tokens', raw: 'length' });
    const [first, second] = toolCallsOf(turn.content);
    expect(first?.input).toEqual({ numero: 'A-1234' });
    expect(second).toMatchObject({ input: undefined, rawInput: '{"numero":"B-', inputError: CUT_OFF_ERROR });
  });

  it.each([
    ['stop', false, 'end_turn'],
    ['stop', true, 'tool_calls'],
    ['length', false, 'max_tokens'],
    ['content_filter', false, 'content_filter'],
    ['function_call', true, 'tool_calls'],
  ] as const)(
    'maps finish_reason %s (calls: %s) to %s, keeping the raw value',
    async (finishReason, withCall, unified) => {
      const turn = await turnFor({
        content: 'ok',
        toolCalls: withCall ? [call('call_1', 'lister_dossiers', '{}')] : [],
        finishReason,
      });
      expect(turn.stopReason).toEqual({ unified, raw: finishReason });
    },
  );

  it('maps names back to the catalogue name and synthesises missing or repeated ids', async () => {
    const turn = await turnFor({
      toolCalls: [
        call('', 'lister_dossiers', '{}'),
        call('dup', 'lister_dossiers', '{}'),
        call('dup', 'lister_dossiers', '{}'),
      ],
    });
    expect(toolCallsOf(turn.content).map((part) => part.id)).toEqual(['call_0', 'dup', 'call_2']);
  });

  it('sends names OpenAI accepts and maps the model’s calls back to the catalogue names', async () => {
    const tools = [
      {
        name: 'dossiers.chercher',
        description: 'Looks up a case file.',
        inputSchema: { type: 'object', properties: {} },
      },
      { name: 'lister_dossiers', description: 'Lists case files.', inputSchema: { type: 'object', properties: {} } },
    ];
    const providerName = createToolNameMap(
      tools.map((tool) => tool.name),
      'openai',
    ).toProvider('dossiers.chercher');
    const cassette = syntheticCassette('openai-chat', 'a call to a tool whose catalogue name OpenAI rejects', [
      jsonInteraction(
        CHAT_PATH,
        chatCompletion({ toolCalls: [call('call_1', providerName, '{}'), call('call_2', 'lister_dossiers', '{}')] }),
      ),
    ]);
    await withChatReplay(cassette, async (model, server) => {
      const turn = await model.generate({ ...ask, tools, toolChoice: { type: 'tool', name: 'dossiers.chercher' } });
      expect(toolCallsOf(turn.content).map((part) => part.name)).toEqual(['dossiers.chercher', 'lister_dossiers']);
      const body = bodyOf(server, 0);
      const sent = (body['tools'] as { function: { name: string } }[]).map((tool) => tool.function.name);
      expect(sent).toEqual([providerName, 'lister_dossiers']);
      expect(sent.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
      expect(body['tool_choice']).toEqual({ type: 'function', function: { name: providerName } });
    });
  });

  it('in strict mode passes parsed inputs through restoreStrictInput', async () => {
    const schema: JsonObject = {
      type: 'object',
      properties: { numero: { type: 'string' }, note: { type: 'string' } },
      required: ['numero'],
      additionalProperties: false,
    };
    const tools = [{ name: 'chercher_dossier', description: 'Looks up a case file.', inputSchema: schema }];
    const turn = await turnFor(
      { toolCalls: [call('call_1', 'chercher_dossier', '{"numero":"A-1234","note":null}')] },
      { strict: true },
      tools,
    );
    // The null the strict schema forced for the omitted optional `note` never reaches the tool.
    expect(toolCallsOf(turn.content)[0]?.input).toEqual({ numero: 'A-1234' });
    expect(restoreStrictInput(schema, { numero: 'A-1234', note: null })).toEqual({ numero: 'A-1234' });
  });

  it('reports a refusal as text and stop reason refusal', async () => {
    const cassette = syntheticCassette('openai-chat', 'a refusal message (shape from the SDK types: message.refusal)', [
      jsonInteraction(CHAT_PATH, {
        id: 'chatcmpl-r',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-4o',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            logprobs: null,
            message: { role: 'assistant', content: null, refusal: 'I can’t help with that.' },
          },
        ],
      }),
    ]);
    const turn = await withChatReplay(cassette, (model) => model.generate(ask));
    expect(turn.content).toEqual([
      { type: 'text', text: 'I can’t help with that.', providerMetadata: { openai: { refusal: true } } },
    ]);
    expect(turn.stopReason).toEqual({ unified: 'refusal', raw: 'stop' });
    expect(turn.usage).toEqual({ inputTokens: undefined, outputTokens: undefined, totalTokens: undefined });
  });
});
