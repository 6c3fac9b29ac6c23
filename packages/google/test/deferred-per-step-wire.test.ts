// Deferred tools and per-step control together on the Gemini wire, through both SDKs: runLoop against the
// replay server (synthetic cassettes). Step 1 searches and loads two deferred tools; step 2's plan allows
// the search, the forecast and pay_person only, and the model calls the loaded forecast (run), pay_person
// (not loaded: tool_not_loaded) and list_files (loaded, left out: inactive_tool).
import { InMemoryJournal, type JsonValue, runLoop } from '@toolcircuit/core';
import { createDeferredPerStepScenario } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { jsonInteraction, SDKS, syntheticCassette } from './support/gemini-cassette.js';
import { modelFor, withReplay } from './support/replay.js';

const scenario = createDeferredPerStepScenario();

const answer = (parts: JsonValue[]): JsonValue => ({
  candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  modelVersion: 'gemini-2.5-flash',
});
const calls = (step: typeof scenario.calls) =>
  answer(step.map((call) => ({ functionCall: { name: call.name, args: { ...call.input } } })));

type Body = { tools?: { functionDeclarations?: { name: string }[] }[]; contents: unknown[] };

describe.each(SDKS)('deferred tools under a per-step plan on the Gemini wire (%s)', (sdk) => {
  it('offers the loaded tools the plan allows; refuses a tool not loaded and a tool the plan left out', async () => {
    const cassette = syntheticCassette(
      'deferred tools under a per-step plan',
      [calls(scenario.searches), calls(scenario.calls), answer([{ text: scenario.answer }])].map((reply) =>
        jsonInteraction(reply),
      ),
    );
    const bodies = await withReplay(cassette, async (server) => {
      const journal = new InMemoryJournal();
      const result = await runLoop({
        model: modelFor(sdk, server),
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
      expect(server.mismatches).toEqual([]);
      return server.received.map((received) => received.body as Body);
    });
    expect(bodies.map((body) => body.tools?.[0]?.functionDeclarations?.map((declaration) => declaration.name))).toEqual(
      scenario.offered,
    );
    const replies = JSON.stringify(bodies[2]?.contents.at(-1));
    expect(replies).toMatch(/pay_person.*not loaded yet/);
    expect(replies).toMatch(/list_files.*is not available at this step/);
  });
});
