// prepareStep, per-tool features and hosted tools on the Chat Completions and Responses wires: runLoop
// through the official SDK against the replay server (synthetic cassettes), asserting the received bodies.
import { hostedTool, InMemoryJournal, type Model, runLoop } from '@toolcircuit/core';
import { createPerStepScenario } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { OpenAIConfigurationError } from '../src/index.js';
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
import { withChatReplay, withResponsesReplay } from './support/replay.js';

const { catalogue, session, messages, prepareStep: plan, call, answer } = createPerStepScenario();
const callArguments = JSON.stringify(call.input);

type Tool = {
  type: string;
  name?: string;
  function?: { name: string; [key: string]: unknown };
  [key: string]: unknown;
};
type Body = { tools?: Tool[]; tool_choice?: unknown; [key: string]: unknown };

async function run(model: Model, extra: { hosted?: boolean } = {}) {
  const journal = new InMemoryJournal();
  const result = await runLoop({
    model,
    catalogue,
    session,
    messages,
    journal,
    prepareStep: plan,
    ...(extra.hosted === true ? { hostedTools: [hostedTool('web_search', { allowedDomains: ['example.org'] })] } : {}),
  });
  expect(result.status).toBe('completed');
  expect(journal.entries.map((entry) => [entry.verdict, entry.reason])).toEqual([
    ['executed', undefined],
    ['refused', 'inactive_tool'],
  ]);
  return result;
}

describe('per-step control on the Chat Completions wire', () => {
  it('prepareStep changes tools and tool choice between steps; per-tool strict, examples and options', async () => {
    const cassette = syntheticCassette('openai-chat', 'per-step tools and tool choice', [
      jsonInteraction(
        CHAT_PATH,
        chatCompletion({ toolCalls: [{ id: 'call_1', name: call.name, arguments: callArguments }] }),
      ),
      jsonInteraction(
        CHAT_PATH,
        chatCompletion({ toolCalls: [{ id: 'call_2', name: call.name, arguments: callArguments }] }),
      ),
      jsonInteraction(CHAT_PATH, chatCompletion({ content: answer })),
    ]);
    const bodies = await withChatReplay(
      cassette,
      async (model, server) => {
        await run(model);
        expect(server.mismatches).toEqual([]);
        return server.received.map((received) => received.body as Body);
      },
      { strict: false },
    );
    const [one, two, three] = bodies as [Body, Body, Body];
    expect(one.tools?.map((tool) => tool.function?.name)).toEqual(['lookup']);
    // The tool's own strict wins over the model's (off): its schema is the strict translation.
    expect(one.tools?.[0]?.function).toMatchObject({ strict: true, parameters: { required: ['numero', 'note'] } });
    expect(one.tools?.[0]?.function?.['description']).toBe(
      'Look up a case file by its number.\n\nExample inputs:\n{"numero":"A-1234"}',
    );
    expect(one.tool_choice).toEqual({ type: 'function', function: { name: 'lookup' } });
    expect(two.tools?.map((tool) => tool.function?.name)).toEqual(['summarise']);
    expect(two.tools?.[0]?.function).toMatchObject({ defer_loading: false });
    expect(two.tools?.[0]?.function).not.toHaveProperty('cache_control');
    expect(two.tools?.[0]?.function).not.toHaveProperty('strict');
    expect(two.tool_choice).toBe('required');
    expect(three.tool_choice).toBe('none');
    expect(JSON.stringify(three['messages'])).toContain('is not available at this step');
  });

  it('refuses a hosted tool, which Chat Completions cannot run, with its configuration error', async () => {
    const cassette = syntheticCassette('openai-chat', 'never reached', [
      jsonInteraction(CHAT_PATH, chatCompletion({ content: 'unused' })),
    ]);
    await withChatReplay(cassette, async (model, server) => {
      await expect(
        runLoop({ model, catalogue, session, messages, hostedTools: [hostedTool('web_search')] }),
      ).rejects.toThrow(OpenAIConfigurationError);
      expect(server.received).toEqual([]);
    });
  });
});

describe('per-step control on the Responses wire', () => {
  it('prepareStep changes tools and tool choice between steps; hosted web search after the functions', async () => {
    const cassette = syntheticCassette('openai-responses', 'per-step tools and tool choice', [
      jsonInteraction(
        RESPONSES_PATH,
        responsesResponse({ output: [functionCallItem('fc_1', 'call_1', call.name, callArguments)] }),
      ),
      jsonInteraction(
        RESPONSES_PATH,
        responsesResponse({ output: [functionCallItem('fc_2', 'call_2', call.name, callArguments)] }),
      ),
      jsonInteraction(RESPONSES_PATH, responsesResponse({ output: [messageItem('msg_1', answer)] })),
    ]);
    const bodies = await withResponsesReplay(
      cassette,
      async (model, server) => {
        await run(model, { hosted: true });
        expect(server.mismatches).toEqual([]);
        return server.received.map((received) => received.body as Body);
      },
      { strict: false },
    );
    const [one, two, three] = bodies as [Body, Body, Body];
    expect(one.tools?.map((tool) => tool.name ?? tool.type)).toEqual(['lookup', 'web_search']);
    expect(one.tools?.[0]).toMatchObject({ type: 'function', strict: true });
    expect(one.tools?.[1]).toEqual({ type: 'web_search', filters: { allowed_domains: ['example.org'] } });
    expect(one.tool_choice).toEqual({ type: 'function', name: 'lookup' });
    expect(two.tools?.map((tool) => tool.name ?? tool.type)).toEqual(['summarise', 'web_search']);
    expect(two.tools?.[0]).toMatchObject({ strict: false, defer_loading: false });
    expect(two.tool_choice).toBe('required');
    expect(three.tool_choice).toBe('none');
    expect(JSON.stringify(three['input'])).toContain('Tools available now: summarise');
  });
});

describe('hosted tool items in the Responses history', () => {
  it('keeps a web_search_call item in the turn and sends it back in its place on the next step', async () => {
    const search = {
      type: 'web_search_call',
      id: 'ws_1',
      status: 'completed',
      action: { type: 'search', query: 'A-1234' },
    };
    const cassette = syntheticCassette('openai-responses', 'a hosted web search, then a call, then the answer', [
      jsonInteraction(
        RESPONSES_PATH,
        responsesResponse({ output: [search, functionCallItem('fc_1', 'call_1', call.name, callArguments)] }),
      ),
      jsonInteraction(RESPONSES_PATH, responsesResponse({ output: [messageItem('msg_1', 'Ouvert.')] })),
    ]);
    const bodies = await withResponsesReplay(cassette, async (model, server) => {
      const result = await runLoop({
        model,
        catalogue,
        session,
        messages,
        hostedTools: [hostedTool('web_search')],
      });
      expect(result.status).toBe('completed');
      expect(result.turns[0]?.providerMetadata?.['openai']?.['hostedItems']).toEqual([{ at: 0, item: search }]);
      expect(server.mismatches).toEqual([]);
      return server.received.map((received) => received.body as Body);
    });
    const input = bodies[1]?.['input'] as { type?: string; id?: string }[];
    expect(input.map((item) => item.type ?? 'message')).toEqual([
      'message',
      'web_search_call',
      'function_call',
      'function_call_output',
    ]);
    expect(input[1]).toEqual(search);
  });
});
