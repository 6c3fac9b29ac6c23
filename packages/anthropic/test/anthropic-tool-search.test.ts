// Anthropic's own tool search (toolSearch: 'bm25' | 'regex') over the replay server, synthetic responses:
// deferred tools go out with defer_loading and the native search tool instead of core's; what its
// tool_search_tool_result referenced may be called in the same turn; its blocks go back in place.
import { createSession, InMemoryJournal, type JsonObject, runLoop, streamLoop } from '@toolcircuit/core';
import { createToolSearchCatalogue, startReplayServer } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { AnthropicConfigurationError, createAnthropicModel } from '../src/index.js';
import { json, MODEL_ID, message, sse, syntheticCassette } from './replay.js';
import {
  blockStop,
  jsonDelta,
  messageDelta,
  messageStart,
  messageStop,
  textDelta,
  textStart,
  toolStart,
} from './stream-events.js';

const catalogue = createToolSearchCatalogue;

function nativeModel(baseURL: string, toolSearch: 'bm25' | 'regex') {
  return createAnthropicModel({ model: MODEL_ID, apiKey: 'test-key-not-secret', baseURL, maxRetries: 0, toolSearch });
}

/** The block types of the assistant message a request re-sent (its second message). */
function resentBlocks(body: unknown): JsonObject[] {
  const messages = ((body ?? {}) as JsonObject)['messages'] as JsonObject[];
  return messages[1]?.['content'] as JsonObject[];
}

const searchBlocks = [
  { type: 'server_tool_use', id: 'srvtoolu_syn1', name: 'tool_search_tool_bm25', input: { query: 'weather' } },
  {
    type: 'tool_search_tool_result',
    tool_use_id: 'srvtoolu_syn1',
    content: {
      type: 'tool_search_tool_search_result',
      tool_references: [{ type: 'tool_reference', tool_name: 'get_weather_forecast' }],
    },
  },
];

describe('anthropic native tool search', () => {
  it('sends deferred tools with defer_loading and the native search tool, loads what it referenced, keeps its blocks', async () => {
    const cassette = syntheticCassette('native tool search: search, then two calls; then an answer', [
      json(
        message(
          [
            ...searchBlocks,
            { type: 'tool_use', id: 'toolu_syn1', name: 'get_weather_forecast', input: { city: 'Lyon' } },
            { type: 'tool_use', id: 'toolu_syn2', name: 'pay_person', input: { city: 'Lyon' } },
          ],
          'tool_use',
        ),
      ),
      json(message([{ type: 'text', text: 'Sunny.' }], 'end_turn')),
    ]);
    const server = await startReplayServer(cassette);
    try {
      const model = nativeModel(server.url, 'bm25');
      const journal = new InMemoryJournal();
      const result = await runLoop({
        model,
        catalogue: catalogue(),
        session: createSession({ id: 's', humanId: 'h', rights: [] }),
        messages: [{ role: 'user', content: 'Weather in Lyon?' }],
        journal,
      });
      expect(result.status).toBe('completed');
      const tools = (index: number) =>
        (((server.received[index]?.body ?? {}) as JsonObject)['tools'] ?? []) as JsonObject[];
      const first = tools(0);
      expect(first.map((tool) => [tool['name'], tool['defer_loading'] ?? null])).toEqual([
        ['current_time', null],
        ['get_weather_forecast', true],
        ['pay_person', true],
        ['list_files', true],
        ['tool_search_tool_bm25', null],
      ]);
      expect(first.at(-1)?.['type']).toBe('tool_search_tool_bm25_20251119');
      // Loaded by the native search: shown from then on, the others still deferred.
      expect(tools(1).map((tool) => [tool['name'], tool['defer_loading'] ?? null])).toEqual([
        ['current_time', null],
        ['get_weather_forecast', null],
        ['pay_person', true],
        ['list_files', true],
        ['tool_search_tool_bm25', null],
      ]);
      expect(journal.entries.map((entry) => [entry.toolName, entry.reason ?? entry.verdict])).toEqual([
        ['get_weather_forecast', 'executed'],
        ['pay_person', 'tool_not_loaded'],
      ]);
      const assistant = resentBlocks(server.received[1]?.body);
      const types = assistant.map((block) => block['type']);
      expect(types).toEqual(['server_tool_use', 'tool_search_tool_result', 'tool_use', 'tool_use']);
      expect(assistant[1]).toEqual(searchBlocks[1]);
    } finally {
      await server.close();
    }
  });

  it('is neutral by default (core search tool, no defer_loading) and refuses an unknown mode', async () => {
    const server = await startReplayServer(
      syntheticCassette('neutral mode: one answer', [json(message([{ type: 'text', text: 'ok' }], 'end_turn'))]),
    );
    try {
      const model = createAnthropicModel({ model: MODEL_ID, apiKey: 'k', baseURL: server.url, maxRetries: 0 });
      await runLoop({
        model,
        catalogue: catalogue(),
        session: createSession({ id: 's', humanId: 'h', rights: [] }),
        messages: [{ role: 'user', content: 'hi' }],
      });
      const tools = ((server.received[0]?.body ?? {}) as JsonObject)['tools'] as JsonObject[];
      expect(tools.map((tool) => tool['name'])).toEqual(['current_time', 'tool_search']);
    } finally {
      await server.close();
    }
    expect(() => createAnthropicModel({ model: MODEL_ID, apiKey: 'k', toolSearch: 'semantic' as never })).toThrow(
      AnthropicConfigurationError,
    );
  });

  it('streams: the server blocks of a streamed turn load its tools the same way', async () => {
    const server = await startReplayServer(
      syntheticCassette('native tool search, streamed: search and a call; then an answer', [
        sse([
          messageStart('msg_syn_s1'),
          { type: 'content_block_start', index: 0, content_block: { ...searchBlocks[0], input: {} } },
          jsonDelta(0, '{"query":"weather"}'),
          blockStop(0),
          { type: 'content_block_start', index: 1, content_block: searchBlocks[1] ?? {} },
          blockStop(1),
          toolStart(2, 'toolu_s1', 'get_weather_forecast'),
          jsonDelta(2, '{"city":"Lyon"}'),
          blockStop(2),
          messageDelta('tool_use'),
          messageStop,
        ]),
        sse([
          messageStart('msg_syn_s2'),
          textStart(0),
          textDelta(0, 'Sunny.'),
          blockStop(0),
          messageDelta('end_turn'),
          messageStop,
        ]),
      ]),
    );
    try {
      const model = nativeModel(server.url, 'regex');
      const journal = new InMemoryJournal();
      const run = streamLoop({
        model,
        catalogue: catalogue(),
        session: createSession({ id: 's', humanId: 'h', rights: [] }),
        messages: [{ role: 'user', content: 'Weather in Lyon?' }],
        journal,
      });
      for await (const _event of run) {
        // drained: the result is what is checked
      }
      expect((await run.result).status).toBe('completed');
      const first = ((server.received[0]?.body ?? {}) as JsonObject)['tools'] as JsonObject[];
      expect(first.at(-1)).toEqual({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
      expect(journal.entries.map((entry) => [entry.toolName, entry.verdict])).toEqual([
        ['get_weather_forecast', 'executed'],
      ]);
      const assistant = resentBlocks(server.received[1]?.body);
      expect(assistant.map((block) => block['type'])).toEqual([
        'server_tool_use',
        'tool_search_tool_result',
        'tool_use',
      ]);
      expect(assistant[0]?.['input']).toEqual({ query: 'weather' });
    } finally {
      await server.close();
    }
  });
});
