// What strict mode makes the model send must reach the executor as a value the ORIGINAL schema accepts, meaning
// what the model meant: runLoop through the official SDK against the replay server (synthetic cassettes), with
// the executor validating every call against the catalogue schema before the tool runs.
import {
  createCatalogue,
  createSession,
  defineTool,
  InMemoryJournal,
  type JsonObject,
  type Model,
  runLoop,
} from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import {
  CHAT_PATH,
  chatCompletion,
  functionCallItem,
  jsonInteraction,
  messageItem,
  RESPONSES_PATH,
  responsesResponse,
  syntheticCassette,
} from './support/cassettes.js';
import { bodyOf, withChatReplay, withResponsesReplay } from './support/replay.js';

type Received = { tool: string; input: unknown }[];

/**
 * `search` is written as pydantic writes `query: str, lang: str | None = None, limit: int | None` with a nested
 * model: objects that only omit additionalProperties, an optional that accepts null with a default, optionals
 * that do not accept null. `label` asks for strict mode itself (its own `strict: true`) on a model without it.
 */
function catalogue(received: Received) {
  return createCatalogue([
    defineTool({
      name: 'search',
      description: 'Search case files by text. Not for one file by its number.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string' },
          lang: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
          limit: { type: 'integer', minimum: 1 },
          filter: { type: 'object', properties: { tag: { type: 'string' }, year: { type: 'integer' } } },
        },
        required: ['query'],
      },
      right: 'files:read',
      run: (input) => {
        received.push({ tool: 'search', input });
        return 'found 2';
      },
    }),
    defineTool({
      name: 'label',
      description: 'Labels a case file by its number.',
      inputSchema: {
        type: 'object',
        properties: { numero: { type: 'string' }, colour: { type: 'string' } },
        required: ['numero'],
        additionalProperties: false,
      },
      strict: true,
      right: 'files:read',
      run: (input) => {
        received.push({ tool: 'label', input });
        return 'labelled';
      },
    }),
  ]);
}

/** What a strict model sends: every key, null where it leaves an optional out, the default where one stands. */
const CALLS = [
  { name: 'search', arguments: '{"query":"A-1234","lang":null,"limit":null,"filter":{"tag":null,"year":2024}}' },
  { name: 'search', arguments: '{"query":"bail","lang":"fr","limit":5,"filter":null}' },
  { name: 'label', arguments: '{"numero":"A-1234","colour":null}' },
];

/** What each tool must receive: null for "omitted" undone, `lang`'s null (its declared default) kept. */
const EXPECTED: Received = [
  { tool: 'search', input: { query: 'A-1234', lang: null, filter: { year: 2024 } } },
  { tool: 'search', input: { query: 'bail', lang: 'fr', limit: 5 } },
  { tool: 'label', input: { numero: 'A-1234' } },
];

/** Runs the loop once; returns what each tool received and each call's verdict (the executor's refusal reason). */
async function run(model: Model): Promise<{ received: Received; verdicts: string[][] }> {
  const received: Received = [];
  const journal = new InMemoryJournal();
  const result = await runLoop({
    model,
    catalogue: catalogue(received),
    session: createSession({ id: 's', humanId: 'h', rights: ['files:read'] }),
    messages: [{ role: 'user', content: 'Find A-1234 and the files about a lease, then label A-1234.' }],
    journal,
  });
  expect(result.status).toBe('completed');
  return { received, verdicts: journal.entries.map((entry) => [entry.toolName, entry.reason ?? entry.verdict]) };
}

describe('strict arguments reach the executor as the original schema reads them', () => {
  it('Chat Completions, strict model: both tools strict, nulls for omitted removed, a defaulted null kept', async () => {
    const cassette = syntheticCassette('openai-chat', 'strict arguments: nulls for omitted, a nullable default', [
      jsonInteraction(
        CHAT_PATH,
        chatCompletion({ toolCalls: CALLS.map((call, index) => ({ id: `call_${index}`, ...call })) }),
      ),
      jsonInteraction(CHAT_PATH, chatCompletion({ content: 'Done.' })),
    ]);
    await withChatReplay(
      cassette,
      async (model, server) => {
        const { received, verdicts } = await run(model);
        expect(server.mismatches).toEqual([]);
        // Every call passed the executor's validation against the original schema, and means what was sent.
        expect(verdicts).toEqual([
          ['search', 'executed'],
          ['search', 'executed'],
          ['label', 'executed'],
        ]);
        expect(received).toEqual(EXPECTED);
        const tools = bodyOf(server, 0)['tools'] as { function: JsonObject }[];
        expect(tools.map((tool) => tool.function['strict'])).toEqual([true, true]);
        const search = tools[0]?.function['parameters'] as JsonObject;
        expect(search['required']).toEqual(['query', 'lang', 'limit', 'filter']);
        // `lang` stays as it is (null is its declared default), required like every property.
        expect((search['properties'] as JsonObject)['lang']).toEqual({
          type: ['string', 'null'],
          description: '(default: null)',
        });
      },
      { strict: true },
    );
  });

  it('Responses, model without strict: the tool that asks for strict is restored by its own dialect', async () => {
    const cassette = syntheticCassette('openai-responses', 'strict arguments: a strict tool on a non-strict model', [
      jsonInteraction(
        RESPONSES_PATH,
        responsesResponse({
          output: CALLS.map((call, index) =>
            functionCallItem(`fc_${index}`, `call_${index}`, call.name, call.arguments),
          ),
        }),
      ),
      jsonInteraction(RESPONSES_PATH, responsesResponse({ output: [messageItem('msg_1', 'Done.')] })),
    ]);
    await withResponsesReplay(cassette, async (model, server) => {
      // `search` goes without strict here, so its nulls reach the executor as sent, and the original refuses
      // those for `limit` and `filter`: a model breaking a schema it was not held to is the executor's to refuse.
      const { received, verdicts } = await run(model);
      expect(server.mismatches).toEqual([]);
      const tools = bodyOf(server, 0)['tools'] as JsonObject[];
      expect(tools.map((tool) => tool['strict'])).toEqual([false, true]);
      expect(verdicts).toEqual([
        ['search', 'invalid_input'],
        ['search', 'invalid_input'],
        ['label', 'executed'],
      ]);
      expect(received).toEqual(EXPECTED.slice(2));
    });
  });
});
