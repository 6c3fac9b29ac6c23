// prepareStep, per-tool features and hosted tools on the Gemini wire, through both SDKs: runLoop and
// streamLoop against the replay server (synthetic cassettes), asserting the request bodies received.
import { hostedTool, InMemoryJournal, type JsonValue, providerTool, runLoop, streamLoop } from '@toolcircuit/core';
import { createPerStepScenario } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { jsonInteraction, SDKS, sseInteraction, syntheticCassette } from './support/gemini-cassette.js';
import { modelFor, withReplay } from './support/replay.js';

const { catalogue, session, messages, prepareStep: plan, call, answer: text } = createPerStepScenario();

const answer = (parts: JsonValue[]): JsonValue => ({
  candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  modelVersion: 'gemini-2.5-flash',
});
const functionCall = { name: call.name, args: { ...call.input } };
const replies = [answer([{ functionCall }]), answer([{ functionCall }]), answer([{ text }])];
const hostedTools = [hostedTool('web_search'), providerTool({ google: { urlContext: {} }, anthropic: { type: 'x' } })];

type Declaration = { name: string; description?: string; [key: string]: unknown };
type Body = {
  tools?: { functionDeclarations?: Declaration[]; [key: string]: unknown }[];
  toolConfig?: { functionCallingConfig?: { mode?: string; allowedFunctionNames?: string[] } };
  contents: unknown[];
};

function checkWire(bodies: Body[]): void {
  expect(bodies).toHaveLength(3);
  const [one, two, three] = bodies as [Body, Body, Body];
  expect(one.tools?.[0]?.functionDeclarations?.map((declaration) => declaration.name)).toEqual(['lookup']);
  expect(one.tools?.[0]?.functionDeclarations?.[0]?.description).toBe(
    'Look up a case file by its number.\n\nExample inputs:\n{"numero":"A-1234"}',
  );
  // Gemini has no strict switch: nothing of it goes on the wire.
  expect(JSON.stringify(one.tools)).not.toContain('strict');
  expect(one.tools?.slice(1)).toEqual([{ googleSearch: {} }, { urlContext: {} }]);
  expect(one.toolConfig?.functionCallingConfig).toEqual({ mode: 'ANY', allowedFunctionNames: ['lookup'] });
  expect(two.tools?.[0]?.functionDeclarations?.map((declaration) => declaration.name)).toEqual(['summarise']);
  expect(two.tools?.[0]?.functionDeclarations?.[0]?.['behavior']).toBe('BLOCKING');
  expect(two.toolConfig?.functionCallingConfig?.mode).toBe('ANY');
  expect(two.toolConfig?.functionCallingConfig?.allowedFunctionNames).toBeUndefined();
  expect(three.toolConfig?.functionCallingConfig?.mode).toBe('NONE');
  expect(JSON.stringify(three.contents.at(-1))).toContain('is not available at this step');
}

describe.each(SDKS)('per-step control on the Gemini wire (%s)', (sdk) => {
  it('runLoop: prepareStep changes tools and tool choice between steps; an inactive call is refused', async () => {
    const cassette = syntheticCassette(
      'per-step tools and tool choice',
      replies.map((reply) => jsonInteraction(reply)),
    );
    const bodies = await withReplay(cassette, async (server) => {
      const journal = new InMemoryJournal();
      const result = await runLoop({
        model: modelFor(sdk, server),
        catalogue,
        session,
        messages,
        journal,
        prepareStep: plan,
        hostedTools,
      });
      expect(result.status).toBe('completed');
      expect(journal.entries.map((entry) => entry.reason)).toEqual([undefined, 'inactive_tool']);
      expect(server.mismatches).toEqual([]);
      return server.received.map((received) => received.body as Body);
    });
    checkWire(bodies);
  });

  it('streamLoop: the same steps on the streaming wire', async () => {
    const cassette = syntheticCassette(
      'per-step tools and tool choice, streamed',
      replies.map((reply) => sseInteraction([reply])),
    );
    const bodies = await withReplay(cassette, async (server) => {
      const stream = streamLoop({
        model: modelFor(sdk, server),
        catalogue,
        session,
        messages,
        prepareStep: plan,
        hostedTools,
      });
      for await (const _event of stream) {
        // drained
      }
      expect((await stream.result).status).toBe('completed');
      expect(server.mismatches).toEqual([]);
      return server.received.map((received) => received.body as Body);
    });
    checkWire(bodies);
  });
});

describe.each(SDKS)('hosted code execution parts in the Gemini history (%s)', (sdk) => {
  const code = { executableCode: { language: 'PYTHON', code: 'print(6*7)' } };
  const outcome = { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '42\n' } };
  const withCode = answer([
    { text: 'Computing.' },
    code,
    outcome,
    { functionCall: { name: 'lookup', args: { numero: 'A-1234' } } },
  ]);
  it.each(['generate', 'stream'] as const)('%s: kept in the turn and sent back in their places', async (mode) => {
    const interactions =
      mode === 'generate'
        ? [jsonInteraction(withCode), jsonInteraction(replies[2] as JsonValue)]
        : [sseInteraction([withCode]), sseInteraction([replies[2] as JsonValue])];
    const cassette = syntheticCassette('code execution, then a call, then the answer', interactions);
    const bodies = await withReplay(cassette, async (server) => {
      const options = {
        model: modelFor(sdk, server),
        catalogue,
        session,
        messages,
        hostedTools: [hostedTool('code_execution')],
      };
      let turns: readonly { providerMetadata?: unknown }[] = [];
      if (mode === 'generate') {
        turns = (await runLoop(options)).turns;
      } else {
        const stream = streamLoop(options);
        for await (const _event of stream) {
          // drained
        }
        turns = (await stream.result).turns;
      }
      expect(turns[0]?.providerMetadata).toMatchObject({
        google: {
          hostedParts: [
            { at: 1, part: code },
            { at: 1, part: outcome },
          ],
        },
      });
      expect(server.mismatches).toEqual([]);
      return server.received.map((received) => received.body as Body);
    });
    expect(bodies[0]?.tools?.at(-1)).toEqual({ codeExecution: {} });
    const model = bodies[1]?.contents[1] as { role: string; parts: unknown[] };
    expect(model.role).toBe('model');
    expect(model.parts).toEqual([
      { text: 'Computing.' },
      code,
      outcome,
      { functionCall: { name: 'lookup', args: { numero: 'A-1234' } } },
    ]);
  });
});
