// Deferred tools and per-step control together on the Messages API wire: runLoop through the official SDK
// against the replay server (synthetic cassette). Step 1 searches and loads two deferred tools; step 2's
// plan allows the search, the forecast and pay_person only, and the model calls the loaded forecast (run),
// pay_person (not loaded: tool_not_loaded) and list_files (loaded, but left out: inactive_tool).
import { InMemoryJournal, type JsonObject, type JsonValue, runLoop } from '@toolcircuit/core';
import { createDeferredPerStepScenario, startReplayServer } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../src/index.js';
import { json, MODEL_ID, message, syntheticCassette } from './replay.js';

const scenario = createDeferredPerStepScenario();

function toolUses(calls: typeof scenario.calls, from: number): JsonValue[] {
  return calls.map((call, index) => ({
    type: 'tool_use',
    id: `toolu_syn${from + index}`,
    name: call.name,
    input: { ...call.input },
  }));
}

const cassette = syntheticCassette('deferred tools under a per-step plan', [
  json(message(toolUses(scenario.searches, 1), 'tool_use')),
  json(message(toolUses(scenario.calls, 3), 'tool_use')),
  json(message([{ type: 'text', text: scenario.answer }], 'end_turn')),
]);

async function play(toolSearch: 'neutral' | 'bm25') {
  const server = await startReplayServer(cassette);
  try {
    const model = createAnthropicModel({
      model: MODEL_ID,
      apiKey: 'test-key-not-secret',
      baseURL: server.url,
      maxRetries: 0,
      toolSearch,
    });
    const journal = new InMemoryJournal();
    const result = await runLoop({
      model,
      catalogue: scenario.catalogue,
      session: scenario.session,
      messages: scenario.messages,
      prepareStep: scenario.prepareStep,
      journal,
    });
    expect(server.mismatches).toEqual([]);
    expect(result.status).toBe('completed');
    expect(journal.entries.map((entry) => [entry.toolName, entry.reason ?? entry.verdict])).toEqual(
      [...scenario.searches, ...scenario.calls].map((call) => [call.name, call.outcome]),
    );
    // The plan of each step is journaled with its calls: none at step 1, the allowed tools at step 2.
    const allowed = ['get_weather_forecast', 'pay_person', 'tool_search'];
    expect(journal.entries.map((entry) => entry.step?.activeTools ?? null)).toEqual([
      null,
      null,
      allowed,
      allowed,
      allowed,
    ]);
    return server.received.map((received) => received.body as JsonObject);
  } finally {
    await server.close();
  }
}

const toolsOf = (body: JsonObject | undefined) => (body?.['tools'] ?? []) as JsonObject[];

describe('deferred tools under a per-step plan on the Anthropic wire', () => {
  it('offers the loaded tools the plan allows; refuses a tool not loaded and a tool the plan left out', async () => {
    const bodies = await play('neutral');
    expect(bodies).toHaveLength(3);
    expect(bodies.map((body) => toolsOf(body).map((tool) => tool['name']))).toEqual(scenario.offered);
    for (const body of bodies) for (const tool of toolsOf(body)) expect(tool).not.toHaveProperty('defer_loading');
    // What went back to the model after step 2: the forecast's result, then the two refusals, each saying
    // what to do (search for pay_person; list_files is not available now, the tools that are).
    const replies = JSON.stringify(((bodies[2]?.['messages'] ?? []) as JsonValue[]).at(-1));
    expect(replies).toContain('get_weather_forecast ran');
    expect(replies).toMatch(/pay_person.*not loaded yet.*the tool search \(\\"tool_search\\"/);
    expect(replies).toMatch(
      /list_files.*is not available at this step.*Tools available now: tool_search, get_weather_forecast/,
    );
  });

  it('with the native search, sends only the deferred tools the plan allows, and no search when it is left out', async () => {
    const bodies = await play('bm25');
    const shape = (body: JsonObject | undefined) =>
      toolsOf(body).map((tool) => [tool['name'], tool['defer_loading'] ?? null]);
    expect(shape(bodies[0])).toEqual([
      ['current_time', null],
      ['get_weather_forecast', true],
      ['pay_person', true],
      ['list_files', true],
      ['tool_search_tool_bm25', null],
    ]);
    // Step 2: the loaded forecast shown, pay_person still deferred, list_files (excluded) not sent at all.
    expect(shape(bodies[1])).toEqual([
      ['get_weather_forecast', null],
      ['pay_person', true],
      ['tool_search_tool_bm25', null],
    ]);
    expect(shape(bodies[2])).toEqual(shape(bodies[1]));
  });
});
