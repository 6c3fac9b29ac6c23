// The Responses API's hosted tool search (toolSearch: 'native') over the replay server, synthetic responses:
// deferred tools go out with defer_loading and `{ type: 'tool_search' }` instead of core's search tool; what
// its tool_search_output loaded may be called in the same turn; its items go back in place.
import { createSession, InMemoryJournal, type JsonObject, runLoop } from '@toolcircuit/core';
import { createToolSearchCatalogue, startReplayServer } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAIResponsesModel, OpenAIConfigurationError } from '../src/index.js';
import {
  functionCallItem,
  jsonInteraction,
  messageItem,
  RESPONSES_PATH,
  responsesResponse,
  syntheticCassette,
} from './support/cassettes.js';

const catalogue = createToolSearchCatalogue;

const searchCall = {
  type: 'tool_search_call',
  id: 'tsc_syn1',
  call_id: null,
  execution: 'server',
  status: 'completed',
  arguments: { query: 'weather' },
};
const searchOutput = {
  type: 'tool_search_output',
  id: 'tso_syn1',
  call_id: null,
  execution: 'server',
  status: 'completed',
  tools: [
    {
      type: 'function',
      name: 'get_weather_forecast',
      description: 'Weather forecast for a city.',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      strict: false,
      defer_loading: true,
    },
  ],
};

describe('openai responses hosted tool search', () => {
  it('sends deferred tools with defer_loading and tool_search, loads what it output, keeps its items', async () => {
    const server = await startReplayServer(
      syntheticCassette('openai-responses', 'hosted tool search: search and two calls, then an answer', [
        jsonInteraction(
          RESPONSES_PATH,
          responsesResponse({
            output: [
              searchCall,
              searchOutput,
              functionCallItem('fc_1', 'call_1', 'get_weather_forecast', '{"city":"Lyon"}'),
              functionCallItem('fc_2', 'call_2', 'pay_person', '{"city":"Lyon"}'),
            ],
          }),
        ),
        jsonInteraction(RESPONSES_PATH, responsesResponse({ output: [messageItem('msg_1', 'Sunny.')] })),
      ]),
    );
    try {
      const model = createOpenAIResponsesModel({
        model: 'gpt-5.2',
        apiKey: 'test-key-not-secret',
        baseURL: `${server.url}/v1`,
        maxRetries: 0,
        toolSearch: 'native',
      });
      const journal = new InMemoryJournal();
      const result = await runLoop({
        model,
        catalogue: catalogue(),
        session: createSession({ id: 's', humanId: 'h', rights: [] }),
        messages: [{ role: 'user', content: 'Weather in Lyon?' }],
        journal,
      });
      expect(result.status).toBe('completed');
      const body = (index: number) => server.received[index]?.body as JsonObject;
      const tools = (index: number) =>
        (body(index)['tools'] as JsonObject[]).map((tool) => [
          tool['type'],
          tool['name'] ?? null,
          tool['defer_loading'] ?? null,
        ]);
      expect(tools(0)).toEqual([
        ['function', 'current_time', null],
        ['function', 'get_weather_forecast', true],
        ['function', 'pay_person', true],
        ['function', 'list_files', true],
        ['tool_search', null, null],
      ]);
      expect(tools(1)).toEqual([
        ['function', 'current_time', null],
        ['function', 'get_weather_forecast', null],
        ['function', 'pay_person', true],
        ['function', 'list_files', true],
        ['tool_search', null, null],
      ]);
      expect(journal.entries.map((entry) => [entry.toolName, entry.reason ?? entry.verdict])).toEqual([
        ['get_weather_forecast', 'executed'],
        ['pay_person', 'tool_not_loaded'],
      ]);
      const input = body(1)['input'] as JsonObject[];
      expect(input.map((item) => item['type'] ?? item['role'])).toEqual([
        'user',
        'tool_search_call',
        'tool_search_output',
        'function_call',
        'function_call',
        'function_call_output',
        'function_call_output',
      ]);
      expect(input[2]).toEqual(searchOutput);
    } finally {
      await server.close();
    }
  });

  it('refuses an unknown mode', () => {
    expect(() =>
      createOpenAIResponsesModel({ model: 'gpt-5.2', apiKey: 'k', toolSearch: 'semantic' as never }),
    ).toThrow(OpenAIConfigurationError);
  });
});
