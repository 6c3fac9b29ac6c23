import type { Message, ModelRequest, ModelTurn, ToolDeclaration, ToolResultPart } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { collect, turnEnd } from './support/collect.js';
import { jsonInteraction, SDKS, type Sdk, sseInteraction, syntheticCassette } from './support/gemini-cassette.js';
import { modelFor, withReplay } from './support/replay.js';

const STEPS = 6;

// `9dossier` is renamed for Gemini (a name must start with a letter or _), so the history carries names
// the adapter has to map.
const TOOLS: readonly ToolDeclaration[] = Object.freeze([
  {
    name: 'chercher_dossier',
    description: 'Find one case file by its number.',
    inputSchema: { type: 'object', properties: { numero: { type: 'string' } }, required: ['numero'] },
  },
  { name: '9dossier', description: 'The ninth file.', inputSchema: { type: 'object', properties: {} } },
]);

/**
 * The same answer on every step, without call ids nor a response id: every id is synthesised from the
 * request, so ids stay distinct only if the seed follows the growing history, and two equal calls in one
 * turn differ only by their ordinal.
 */
const CALLS = {
  candidates: [
    {
      content: {
        role: 'model',
        parts: [
          { functionCall: { name: 'chercher_dossier', args: { numero: 'A-1' } }, thoughtSignature: 'U2lnMQ==' },
          { functionCall: { name: 'chercher_dossier', args: { numero: 'A-1' } } },
          { functionCall: { name: '_9dossier', args: {} } },
        ],
      },
      finishReason: 'STOP',
    },
  ],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
  modelVersion: 'gemini-2.5-flash',
};

type Mode = 'generate' | 'stream';
type History = 'same objects' | 'fresh copies';

/**
 * STEPS turns of a conversation through the real SDK over HTTP. With `same objects` the history keeps its
 * message objects from step to step, as the loop does (every earlier message's conversion is reused);
 * with `fresh copies` each request gets a deep copy, so nothing is found in any cache.
 */
async function converse(sdk: Sdk, mode: Mode, history: History) {
  const answer = mode === 'generate' ? jsonInteraction(CALLS) : sseInteraction([CALLS]);
  const cassette = syntheticCassette('the same three calls on every step', Array(STEPS).fill(answer));
  return withReplay(cassette, async (server) => {
    const model = modelFor(sdk, server);
    const messages: Message[] = [{ role: 'user', content: 'Open A-1 twice, then the ninth file.' }];
    const ids: string[] = [];
    for (let step = 0; step < STEPS; step += 1) {
      const request: ModelRequest = {
        system: 'You look up case files.',
        messages: history === 'same objects' ? [...messages] : structuredClone(messages),
        tools: TOOLS,
      };
      const turn: ModelTurn =
        mode === 'generate' ? await model.generate(request) : turnEnd(await collect(model.stream?.(request))).turn;
      const calls = turn.content.filter((part) => part.type === 'tool_call');
      ids.push(...calls.map((call) => call.id));
      const results = calls.map(
        (call, index): ToolResultPart => ({
          type: 'tool_result',
          callId: call.id,
          name: call.name,
          content: index === 0 ? [{ type: 'json', value: { numero: 'A-1', step } }] : `result ${step}.${index}`,
          isError: index === 1,
        }),
      );
      messages.push({ role: 'assistant', content: turn.content }, { role: 'tool', content: results });
    }
    expect(server.mismatches).toEqual([]);
    // The SDKs send JSON.stringify output, so the parsed body written back is the text on the wire.
    return { bodies: server.received.map((received) => JSON.stringify(received.body)), ids };
  });
}

describe.each(SDKS)('a multi-step conversation on %s', (sdk) => {
  it.each<Mode>(['generate', 'stream'])(
    '%s: the reused conversions send the bytes a cold conversion sends',
    async (mode) => {
      const reused = await converse(sdk, mode, 'same objects');
      const cold = await converse(sdk, mode, 'fresh copies');
      expect(reused.bodies).toHaveLength(STEPS);
      expect(reused.bodies).toEqual(cold.bodies);
      // Every earlier turn is still on the wire, with the provider name of the renamed tool.
      const last = JSON.parse(reused.bodies.at(-1) ?? '{}') as { contents: unknown[] };
      expect(last.contents).toHaveLength(1 + 2 * (STEPS - 1));
      expect(reused.bodies.at(-1)).toContain('"name":"_9dossier"');
      expect(reused.bodies.at(-1)).not.toContain('"9dossier"');
      // Synthesised ids: the same for the same requests, distinct across every call of every turn.
      expect(reused.ids).toEqual(cold.ids);
      expect(new Set(reused.ids).size).toBe(3 * STEPS);
    },
  );
});
