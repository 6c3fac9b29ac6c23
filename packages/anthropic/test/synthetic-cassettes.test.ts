import {
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  type ModelRequest,
  ProviderError,
  runLoop,
  type StreamEvent,
  turnOfUnsupportedCall,
} from '@toolcircuit/core';
import {
  followUpRequest,
  listCassettes,
  loadSyntheticCassette,
  type ReplayServer,
  startReplayServer,
  streamError,
  streamTurnEnd,
  syntheticCassettesDirectory,
} from '@toolcircuit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../src/index.js';
import { collect, streamFrom } from './stream-events.js';

// The committed synthetic cassettes of the Messages API (packages/testing/synthetic-cassettes/anthropic): the
// shapes no public recording has, each through the official SDK and the replay server, streamed or not.
const NAMES = listCassettes({ protocol: 'anthropic-messages', directory: syntheticCassettesDirectory() });

const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function modelFor(name: string) {
  const cassette = loadSyntheticCassette(name);
  const server = await startReplayServer(cassette);
  servers.push(server);
  const model = createAnthropicModel({ model: cassette.model ?? '', apiKey: 'k', baseURL: server.url, maxRetries: 0 });
  return { model, server };
}

const ASK: ModelRequest = { messages: [{ role: 'user', content: 'Go.' }], tools: [] };

async function streamed(name: string): Promise<{ events: StreamEvent[]; server: ReplayServer }> {
  const { model, server } = await modelFor(name);
  const events = await collect(streamFrom(model, ASK));
  expect(events.filter((event) => event.type === 'turn-end' || event.type === 'error')).toHaveLength(1);
  return { events, server };
}

const HOLOGRAM = { type: 'hologram', id: 'holo_01Synthetic', frames: [{ at: 0, shape: 'cube' }] };

const EXPECTATIONS: Readonly<Record<string, () => Promise<void>>> = {
  'anthropic/unknown-block': async () => {
    const { model, server } = await modelFor('anthropic/unknown-block');
    const turn = await model.generate(ASK);
    expect(turn.content).toEqual([
      { type: 'text', text: 'Before.' },
      { type: 'provider', provider: 'anthropic', kind: 'hologram', data: HOLOGRAM },
      { type: 'text', text: 'After.' },
    ]);
    expect(turn.stopReason).toEqual({ unified: 'end_turn', raw: 'end_turn' });
    // Sent back in its place on the next request, unchanged.
    await model.generate(followUpRequest(ASK, turn, 'And?'));
    const sent = server.received[1]?.body as { messages: { content: unknown[] }[] };
    expect(sent.messages[1]?.content).toEqual([
      { type: 'text', text: 'Before.' },
      HOLOGRAM,
      { type: 'text', text: 'After.' },
    ]);
  },
  'anthropic/unknown-block.chunks': async () => {
    const { events } = await streamed('anthropic/unknown-block.chunks');
    const part = {
      type: 'provider',
      provider: 'anthropic',
      kind: 'hologram',
      data: { type: 'hologram', id: 'holo_01Synthetic', frames: [], caption: 'a cube' },
    };
    expect(events.filter((event) => event.type === 'provider-part')).toEqual([{ type: 'provider-part', part }]);
    expect(streamTurnEnd(events).content).toEqual([
      { type: 'text', text: 'Before.' },
      part,
      { type: 'text', text: 'After.' },
    ]);
  },
  'anthropic/unknown-use-block': async () => {
    const { model } = await modelFor('anthropic/unknown-use-block');
    const error = await model.generate(ASK).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'unsupported_call', providerCode: 'teleport_use', retryable: false });
    // Never end_turn, and nothing lost: the turn, with the request kept as a provider part, is on the error.
    expect(turnOfUnsupportedCall(error)?.content).toEqual([
      {
        type: 'provider',
        provider: 'anthropic',
        kind: 'teleport_use',
        data: { type: 'teleport_use', id: 'tpu_01Synthetic', name: 'teleport', input: { to: 'mars' } },
      },
    ]);
  },
  'anthropic/unknown-use-block.chunks': async () => {
    const { events } = await streamed('anthropic/unknown-use-block.chunks');
    expect(events.filter((event) => event.type === 'provider-part')).toHaveLength(1);
    expect(streamError(events)).toMatchObject({ code: 'unsupported_call', providerCode: 'teleport_use' });
    expect(turnOfUnsupportedCall(streamError(events))?.content[0]).toMatchObject({
      kind: 'teleport_use',
      data: { input: { to: 'mars' } },
    });
  },
  'anthropic/pause-turn': async () => {
    const { model, server } = await modelFor('anthropic/pause-turn');
    // Through the loop: the paused turn is sent back as it is, and the same turn goes on to its end.
    const result = await runLoop({
      model,
      catalogue: createCatalogue([
        defineTool({
          name: 'noop',
          description: 'Does nothing.',
          inputSchema: { type: 'object' },
          right: everySession,
          run: () => 'ok',
        }),
      ]),
      session: createSession({ id: 's', humanId: 'h', rights: [] }),
      messages: [{ role: 'user', content: 'Find the release notes.' }],
    });
    expect(result.status).toBe('completed');
    expect(result.turns.map((turn) => turn.stopReason)).toEqual([
      { unified: 'pause', raw: 'pause_turn' },
      { unified: 'end_turn', raw: 'end_turn' },
    ]);
    expect(result.text).toBe('The notes list three fixes.');
    const second = server.received[1]?.body as { messages: { role: string; content: { type: string }[] }[] };
    expect(second.messages.at(-1)?.role).toBe('assistant');
    expect(second.messages.at(-1)?.content.map((block) => block.type)).toEqual([
      'server_tool_use',
      'web_search_tool_result',
    ]);
  },
  'anthropic/pause-turn.chunks': async () => {
    const { events } = await streamed('anthropic/pause-turn.chunks');
    const turn = streamTurnEnd(events);
    expect(turn.stopReason).toEqual({ unified: 'pause', raw: 'pause_turn' });
    expect(turn.providerMetadata?.['anthropic']?.['serverBlocks']).toHaveLength(2);
  },
  'anthropic/refusal': async () => {
    const { model } = await modelFor('anthropic/refusal');
    const turn = await model.generate(ASK);
    expect(turn.stopReason).toEqual({ unified: 'refusal', raw: 'refusal' });
    expect(turn.content).toEqual([]);
    expect(turn.providerMetadata?.['anthropic']?.['stopDetails']).toMatchObject({ type: 'refusal', category: 'cyber' });
  },
  'anthropic/refusal.chunks': async () => {
    const { events } = await streamed('anthropic/refusal.chunks');
    const turn = streamTurnEnd(events);
    expect(turn.stopReason).toEqual({ unified: 'refusal', raw: 'refusal' });
    expect(turn.content).toEqual([{ type: 'text', text: 'I can' }]);
    expect(turn.providerMetadata?.['anthropic']?.['stopDetails']).toMatchObject({ type: 'refusal' });
  },
  'anthropic/stream-error-event.chunks': async () => {
    const { events } = await streamed('anthropic/stream-error-event.chunks');
    expect(events[0]).toEqual({ type: 'text-delta', text: 'Partial' });
    expect(streamError(events)).toMatchObject({
      code: 'overloaded',
      retryable: true,
      providerCode: 'overloaded_error',
    });
  },
  'anthropic/http-500': async () => {
    const { model } = await modelFor('anthropic/http-500');
    await expect(model.generate(ASK)).rejects.toMatchObject({
      code: 'server_error',
      status: 500,
      retryable: true,
      providerCode: 'api_error',
      requestId: 'req_011Synthetic',
    });
  },
  'anthropic/http-529': async () => {
    const { model } = await modelFor('anthropic/http-529');
    await expect(model.generate(ASK)).rejects.toMatchObject({
      code: 'overloaded',
      status: 529,
      retryable: true,
      providerCode: 'overloaded_error',
    });
  },
};

describe('synthetic Anthropic cassettes', () => {
  it('exercises every one of them', () => {
    expect(NAMES.length).toBeGreaterThan(0);
    expect(NAMES).toEqual(Object.keys(EXPECTATIONS).sort());
  });
  it.each(NAMES)('%s', async (name) => {
    await EXPECTATIONS[name]?.();
    for (const server of servers) expect(server.mismatches).toEqual([]);
  });
});
