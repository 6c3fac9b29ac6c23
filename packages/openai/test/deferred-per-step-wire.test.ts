// Deferred tools and per-step control together on the Chat Completions and Responses wires: runLoop through
// the official SDK against the replay server (synthetic cassettes). Step 1 searches and loads two deferred
// tools; step 2's plan allows the search, the forecast and pay_person only, and the model calls the loaded
// forecast (run), pay_person (not loaded: tool_not_loaded) and list_files (loaded, left out: inactive_tool).
import { InMemoryJournal, type JsonObject, type Model, runLoop } from '@toolcircuit/core';
import { createDeferredPerStepScenario } from '@toolcircuit/testing';
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
import { withChatReplay, withResponsesReplay } from './support/replay.js';

const scenario = createDeferredPerStepScenario();
const steps = [scenario.searches, scenario.calls];

type Tool = { type: string; name?: string; function?: JsonObject; [key: string]: unknown };
type Body = { tools?: Tool[]; [key: string]: unknown };

async function run(model: Model): Promise<void> {
  const journal = new InMemoryJournal();
  const result = await runLoop({
    model,
    catalogue: scenario.catalogue,
    session: scenario.session,
    messages: scenario.messages,
    prepareStep: scenario.prepareStep,
    journal,
  });
  expect(result.status).toBe('completed');
  expect(journal.entries.map((entry) => [entry.toolName, entry.reason ?? entry.verdict])).toEqual(
    [...scenario.searches, ...scenario.calls].map((call) => [call.name, call.outcome]),
  );
}

function checkReplies(history: unknown): void {
  const text = JSON.stringify(history);
  expect(text).toContain('get_weather_forecast ran');
  expect(text).toMatch(/pay_person.*not loaded yet.*the tool search \(\\"tool_search\\"/);
  expect(text).toMatch(
    /list_files.*is not available at this step.*Tools available now: tool_search, get_weather_forecast/,
  );
}

describe('deferred tools under a per-step plan on the Chat Completions wire', () => {
  it('offers the loaded tools the plan allows; refuses a tool not loaded and a tool the plan left out', async () => {
    const cassette = syntheticCassette('openai-chat', 'deferred tools under a per-step plan', [
      ...steps.map((calls, step) =>
        jsonInteraction(
          CHAT_PATH,
          chatCompletion({
            toolCalls: calls.map((call, index) => ({
              id: `call_${step}_${index}`,
              name: call.name,
              arguments: JSON.stringify(call.input),
            })),
          }),
        ),
      ),
      jsonInteraction(CHAT_PATH, chatCompletion({ content: scenario.answer })),
    ]);
    const bodies = await withChatReplay(cassette, async (model, server) => {
      await run(model);
      expect(server.mismatches).toEqual([]);
      return server.received.map((received) => received.body as Body);
    });
    expect(bodies.map((body) => body.tools?.map((tool) => tool.function?.['name']))).toEqual(scenario.offered);
    // Strict mode is on, but the deferred tools' open objects would be narrowed by it: they go without it.
    const forecast = bodies[1]?.tools?.find((tool) => tool.function?.['name'] === 'get_weather_forecast');
    expect(forecast?.function).not.toHaveProperty('strict');
    checkReplies(bodies[2]?.['messages']);
  });
});

describe('deferred tools under a per-step plan on the Responses wire', () => {
  const cassette = () => {
    let id = 0;
    return syntheticCassette('openai-responses', 'deferred tools under a per-step plan', [
      ...steps.map((calls) =>
        jsonInteraction(
          RESPONSES_PATH,
          responsesResponse({
            output: calls.map((call) => {
              id += 1;
              return functionCallItem(`fc_${id}`, `call_${id}`, call.name, JSON.stringify(call.input));
            }),
          }),
        ),
      ),
      jsonInteraction(RESPONSES_PATH, responsesResponse({ output: [messageItem('msg_1', scenario.answer)] })),
    ]);
  };

  it('offers the loaded tools the plan allows; refuses a tool not loaded and a tool the plan left out', async () => {
    const bodies = await withResponsesReplay(cassette(), async (model, server) => {
      await run(model);
      expect(server.mismatches).toEqual([]);
      return server.received.map((received) => received.body as Body);
    });
    expect(bodies.map((body) => body.tools?.map((tool) => tool.name))).toEqual(scenario.offered);
    const forecast = bodies[1]?.tools?.find((tool) => tool.name === 'get_weather_forecast');
    expect(forecast).toMatchObject({ type: 'function', strict: false });
    checkReplies(bodies[2]?.['input']);
  });

  it('with the hosted search, sends only the deferred tools the plan allows', async () => {
    const bodies = await withResponsesReplay(
      cassette(),
      async (model, server) => {
        await run(model);
        expect(server.mismatches).toEqual([]);
        return server.received.map((received) => received.body as Body);
      },
      { toolSearch: 'native' },
    );
    const shape = (body: Body | undefined) =>
      body?.tools?.map((tool) => [tool.name ?? tool.type, tool['defer_loading'] ?? null]);
    expect(shape(bodies[0])).toEqual([
      ['current_time', null],
      ['get_weather_forecast', true],
      ['pay_person', true],
      ['list_files', true],
      ['tool_search', null],
    ]);
    // Step 2: the loaded forecast shown, pay_person still deferred, list_files (left out) not sent at all.
    expect(shape(bodies[1])).toEqual([
      ['get_weather_forecast', null],
      ['pay_person', true],
      ['tool_search', null],
    ]);
  });
});
