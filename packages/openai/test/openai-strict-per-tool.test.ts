import type { JsonObject, ModelRequest, ToolDeclaration } from '@toolcircuit/core';
import { translateSchema } from '@toolcircuit/schema';
import { describe, expect, it } from 'vitest';
import {
  CHAT_PATH,
  chatCompletion,
  functionCallItem,
  jsonInteraction,
  RESPONSES_PATH,
  responsesResponse,
  syntheticCassette,
} from './support/cassettes.js';
import { withChatReplay, withResponsesReplay } from './support/replay.js';

/**
 * Strict mode is per function. `label` is closed, so strict mode keeps every valid input and it stays strict.
 * `annotate` would be narrowed (its `meta` object is open, its optional `note` accepts null), so it is sent
 * with strict: false and its faithful schema, and the model's arguments reach the executor as they are.
 */
const TOOLS: readonly ToolDeclaration[] = Object.freeze([
  {
    name: 'label',
    description: 'Labels a case file.',
    inputSchema: {
      type: 'object',
      properties: { numero: { type: 'string' }, colour: { type: 'string' } },
      required: ['numero'],
      additionalProperties: false,
    },
  },
  {
    name: 'annotate',
    description: 'Annotates a case file.',
    inputSchema: {
      type: 'object',
      properties: {
        numero: { type: 'string' },
        note: { type: ['string', 'null'] },
        meta: { type: 'object', properties: { author: { type: 'string' } } },
      },
      required: ['numero'],
    },
  },
]);

const REQUEST: ModelRequest = { messages: [{ role: 'user', content: 'Label and annotate A-1234.' }], tools: TOOLS };
const LABEL_ARGS = '{"numero":"A-1234","colour":null}';
const ANNOTATE_ARGS = '{"numero":"A-1234","note":null,"meta":{"author":"ana","reviewed":true}}';

/** What the executor must receive: strict's null-for-omitted undone for `label`, `annotate` untouched. */
const EXPECTED_INPUTS = [
  { numero: 'A-1234' },
  { numero: 'A-1234', note: null, meta: { author: 'ana', reviewed: true } },
];

function expectPerToolStrict(strictFlags: unknown[], parameters: unknown[]): void {
  expect(parameters).toEqual([
    translateSchema(TOOLS[0]?.inputSchema ?? {}, 'openai-strict', { fallback: false }).schema,
    translateSchema(TOOLS[1]?.inputSchema ?? {}, 'openai').schema,
  ]);
  expect(translateSchema(TOOLS[1]?.inputSchema ?? {}, 'openai-strict').changes[0]?.kind).toBe('strict-off');
  expect(strictFlags[0]).toBe(true);
  expect(strictFlags[1] ?? false).toBe(false);
}

describe('strict mode, per tool', () => {
  it('Chat Completions: strict only where it keeps every valid input; the other tool sent faithfully', async () => {
    const cassette = syntheticCassette('openai-chat', 'strict per tool: one call to each tool', [
      jsonInteraction(
        CHAT_PATH,
        chatCompletion({
          toolCalls: [
            { id: 'call_1', name: 'label', arguments: LABEL_ARGS },
            { id: 'call_2', name: 'annotate', arguments: ANNOTATE_ARGS },
          ],
        }),
      ),
    ]);
    await withChatReplay(
      cassette,
      async (model, server) => {
        const turn = await model.generate(REQUEST);
        expect(server.mismatches).toEqual([]);
        const tools = ((server.received[0]?.body ?? {}) as JsonObject)['tools'] as { function: JsonObject }[];
        expectPerToolStrict(
          tools.map((tool) => tool.function['strict']),
          tools.map((tool) => tool.function['parameters']),
        );
        // Chat sends `strict` only when on (false is the default, and some compatible servers reject it).
        expect(tools[1]?.function).not.toHaveProperty('strict');
        const inputs = turn.content.flatMap((part) => (part.type === 'tool_call' ? [part.input] : []));
        expect(inputs).toEqual(EXPECTED_INPUTS);
      },
      { strict: true },
    );
  });

  it('Responses: strict: true and strict: false side by side, each call restored by its own dialect', async () => {
    const cassette = syntheticCassette('openai-responses', 'strict per tool: one call to each tool', [
      jsonInteraction(
        RESPONSES_PATH,
        responsesResponse({
          output: [
            functionCallItem('fc_1', 'call_1', 'label', LABEL_ARGS),
            functionCallItem('fc_2', 'call_2', 'annotate', ANNOTATE_ARGS),
          ],
        }),
      ),
    ]);
    await withResponsesReplay(
      cassette,
      async (model, server) => {
        const turn = await model.generate(REQUEST);
        expect(server.mismatches).toEqual([]);
        const tools = ((server.received[0]?.body ?? {}) as JsonObject)['tools'] as JsonObject[];
        expectPerToolStrict(
          tools.map((tool) => tool['strict']),
          tools.map((tool) => tool['parameters']),
        );
        // Responses reads an absent `strict` as true, so false is always written out.
        expect(tools[1]?.['strict']).toBe(false);
        const inputs = turn.content.flatMap((part) => (part.type === 'tool_call' ? [part.input] : []));
        expect(inputs).toEqual(EXPECTED_INPUTS);
      },
      { strict: true },
    );
  });
});
