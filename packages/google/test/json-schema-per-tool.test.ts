import type { JsonObject, JsonValue, ModelRequest, ToolDeclaration } from '@toolcircuit/core';
import { translateSchema } from '@toolcircuit/schema';
import { describe, expect, it } from 'vitest';
import { jsonInteraction, SDKS, syntheticCassette } from './support/gemini-cassette.js';
import { modelFor, withReplay } from './support/replay.js';

/**
 * A Gemini function declares either `parameters` (OpenAPI subset) or `parametersJsonSchema`. `chercher` loses
 * nothing in `parameters`; `compter` declares no parameter and says nothing of other keys (none is an input),
 * so it goes without `parameters`; `lister` declares open keys but no property (without `parameters` it could
 * only be called with none); `envoyer` has a union whose branches share their keys and that `parameters` can
 * only carry as JSON text nothing tells apart. Those two go as parametersJsonSchema, and the model's arguments
 * reach the executor as they were sent.
 */
const TOOLS: readonly ToolDeclaration[] = Object.freeze([
  {
    name: 'chercher',
    description: 'Find one case file by its number.',
    inputSchema: {
      type: 'object',
      properties: { numero: { type: 'string' } },
      required: ['numero'],
      additionalProperties: false,
    },
  },
  { name: 'compter', description: 'Count case files.', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'lister',
    description: 'List case files.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: true },
  },
  {
    name: 'envoyer',
    description: 'Send a message.',
    inputSchema: {
      type: 'object',
      properties: {
        message: {
          anyOf: [
            { type: 'object', properties: { body: { type: 'string' } }, required: ['body'] },
            { type: 'object', properties: { body: { type: 'object' } }, required: ['body'] },
          ],
        },
      },
      required: ['message'],
    },
  },
]);

const CALLS: readonly { name: string; args: JsonObject }[] = [
  { name: 'chercher', args: { numero: 'A-1234' } },
  { name: 'compter', args: {} },
  { name: 'lister', args: { filtre: 'ouverts' } },
  { name: 'envoyer', args: { message: { body: { texte: 'bonjour' } } } },
];

function lowerTypes(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(lowerTypes);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === 'type' && typeof item === 'string' ? item.toLowerCase() : lowerTypes(item),
    ]),
  );
}

const REQUEST: ModelRequest = { messages: [{ role: 'user', content: 'Do all four.' }], tools: TOOLS };

describe.each(SDKS)('parameters or parametersJsonSchema per tool, over %s', (sdk) => {
  it('declares each tool in the dialect that keeps every valid input, and restores each call by it', async () => {
    const cassette = syntheticCassette('one call to each tool, to capture the declarations', [
      jsonInteraction({
        candidates: [
          {
            content: { role: 'model', parts: CALLS.map((call) => ({ functionCall: call })) },
            finishReason: 'STOP',
          },
        ],
      }),
    ]);
    await withReplay(cassette, async (server) => {
      const turn = await modelFor(sdk, server).generate(REQUEST);
      expect(server.mismatches).toEqual([]);
      const body = (server.received[0]?.body ?? {}) as { tools?: { functionDeclarations: JsonObject[] }[] };
      // @google/genai spells `parameters` types in capitals (OBJECT, STRING); parametersJsonSchema goes as is.
      const declarations = lowerTypes(body.tools?.[0]?.functionDeclarations ?? []);
      const schemaOf = (index: number): JsonObject => TOOLS[index]?.inputSchema ?? {};
      expect(declarations).toEqual([
        {
          name: 'chercher',
          description: 'Find one case file by its number.',
          parameters: translateSchema(schemaOf(0), 'gemini', { fallback: false }).schema as JsonValue,
        },
        { name: 'compter', description: 'Count case files.' },
        {
          name: 'lister',
          description: 'List case files.',
          parametersJsonSchema: { type: 'object', properties: {} },
        },
        {
          name: 'envoyer',
          description: 'Send a message.',
          parametersJsonSchema: translateSchema(schemaOf(3), 'gemini-json-schema').schema as JsonValue,
        },
      ]);
      expect(translateSchema(schemaOf(1), 'gemini').changes.map((change) => change.kind)).toContain(
        'closed-implicit-object',
      );
      expect(translateSchema(schemaOf(2), 'gemini').changes[0]?.kind).toBe('json-schema-parameters');
      expect(translateSchema(schemaOf(3), 'gemini').changes[0]?.kind).toBe('json-schema-parameters');
      const inputs = turn.content.flatMap((part) => (part.type === 'tool_call' ? [part.input] : []));
      expect(inputs).toEqual(CALLS.map((call) => call.args));
    });
  });
});
