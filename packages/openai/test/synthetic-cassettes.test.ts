import {
  type Model,
  type ModelRequest,
  ProviderError,
  type StreamEvent,
  turnOfUnsupportedCall,
} from '@toolcircuit/core';
import {
  type CassetteProtocol,
  followUpRequest,
  listCassettes,
  loadSyntheticCassette,
  type ReplayServer,
  startReplayServer,
  streamError,
  streamTurnEnd,
  syntheticCassettesDirectory,
} from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '../src/index.js';
import { collect, streamOf as streamFrom } from './support/replay.js';

// The committed synthetic cassettes of both OpenAI protocols (packages/testing/synthetic-cassettes): the shapes
// no public recording has, each through the official SDK and the replay server, streamed or not.
const ASK: ModelRequest = { messages: [{ role: 'user', content: 'Go.' }], tools: [] };

async function withModel<T>(name: string, body: (model: Model, server: ReplayServer) => Promise<T>): Promise<T> {
  const cassette = loadSyntheticCassette(name);
  const server = await startReplayServer(cassette);
  try {
    const options = { model: cassette.model ?? '', apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 };
    const model =
      cassette.protocol === 'openai-chat' ? createOpenAIChatModel(options) : createOpenAIResponsesModel(options);
    const result = await body(model, server);
    expect(server.mismatches).toEqual([]);
    return result;
  } finally {
    await server.close();
  }
}

function streamOf(name: string): Promise<StreamEvent[]> {
  return withModel(name, async (model) => {
    const events = await collect(streamFrom(model, ASK));
    expect(events.filter((event) => event.type === 'turn-end' || event.type === 'error')).toHaveLength(1);
    return events;
  });
}

const HOLOGRAM = { id: 'holo_Synthetic', type: 'hologram', status: 'completed', frames: [{ at: 0, shape: 'cube' }] };
const TELEPORT = {
  id: 'tp_Synthetic',
  type: 'teleport_call',
  status: 'completed',
  call_id: 'call_SyntheticTeleport',
  destination: 'mars',
};
const AUDIO = { id: 'audio_Synthetic', data: 'UklGRg==', expires_at: 1767229200, transcript: 'Hello.' };

const EXPECTATIONS: Readonly<Record<string, () => Promise<void>>> = {
  'openai-chat/unknown-message-field': () =>
    withModel('openai-chat/unknown-message-field', async (model, server) => {
      const turn = await model.generate(ASK);
      expect(turn.content).toEqual([
        { type: 'reasoning', text: 'Greet back.', providerMetadata: { openai: { field: 'reasoning_content' } } },
        { type: 'text', text: 'Hello.' },
        { type: 'provider', provider: 'openai', kind: 'message.audio', data: { audio: AUDIO } },
      ]);
      expect(turn.stopReason).toEqual({ unified: 'end_turn', raw: 'stop' });
      expect(server.received).toHaveLength(1);
    }),
  'openai-chat/unknown-message-field.chunks': async () => {
    const events = await streamOf('openai-chat/unknown-message-field.chunks');
    expect(
      events
        .filter((event) => event.type === 'reasoning-delta')
        .map((event) => event.type === 'reasoning-delta' && event.text),
    ).toEqual(['Greet ', 'back.']);
    expect(events.filter((event) => event.type === 'provider-part')).toEqual([
      {
        type: 'provider-part',
        part: { type: 'provider', provider: 'openai', kind: 'message.audio', data: { audio: AUDIO } },
      },
    ]);
    expect(streamTurnEnd(events).content.map((part) => part.type)).toEqual(['reasoning', 'text', 'provider']);
  },
  'openai-chat/unknown-tool-call-type': () =>
    withModel('openai-chat/unknown-tool-call-type', async (model) => {
      const error = await model.generate(ASK).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: 'unsupported_call', providerCode: 'tool_calls.teleport', retryable: false });
      expect(turnOfUnsupportedCall(error)?.content).toEqual([
        {
          type: 'provider',
          provider: 'openai',
          kind: 'tool_calls.teleport',
          data: { id: 'call_Synthetic1', type: 'teleport' },
        },
      ]);
    }),
  'openai-chat/unknown-tool-call-type.chunks': async () => {
    const events = await streamOf('openai-chat/unknown-tool-call-type.chunks');
    expect(events.filter((event) => event.type === 'tool-call-start')).toEqual([]);
    expect(streamError(events)).toMatchObject({ code: 'unsupported_call', providerCode: 'tool_calls.teleport' });
  },
  'openai-chat/http-500': () =>
    withModel('openai-chat/http-500', (model) =>
      expect(model.generate(ASK)).rejects.toMatchObject({ code: 'server_error', status: 500, retryable: true }),
    ),
  'openai-chat/http-503': () =>
    withModel('openai-chat/http-503', (model) =>
      expect(model.generate(ASK)).rejects.toMatchObject({
        status: 503,
        retryable: true,
        providerCode: 'server_is_overloaded',
      }),
    ),
  'openai-responses/unknown-item': () =>
    withModel('openai-responses/unknown-item', async (model, server) => {
      const turn = await model.generate(ASK);
      expect(turn.content).toEqual([
        { type: 'provider', provider: 'openai', kind: 'hologram', data: HOLOGRAM },
        { type: 'text', text: 'Here is the map.', providerMetadata: { openai: { itemId: 'msg_Synthetic' } } },
      ]);
      expect(turn.stopReason).toEqual({ unified: 'end_turn', raw: 'completed' });
      await model.generate(followUpRequest(ASK, turn, 'And?'));
      // Sent back in its place, unchanged, before the message it came before.
      const input = (server.received[1]?.body as { input: { type?: string }[] } | undefined)?.input;
      expect(input?.[1]).toEqual(HOLOGRAM);
      expect(input?.[2]).toMatchObject({ type: 'message', id: 'msg_Synthetic' });
    }),
  'openai-responses/unknown-item.chunks': async () => {
    const events = await streamOf('openai-responses/unknown-item.chunks');
    expect(events.filter((event) => event.type === 'provider-part')).toEqual([
      { type: 'provider-part', part: { type: 'provider', provider: 'openai', kind: 'hologram', data: HOLOGRAM } },
    ]);
    expect(streamTurnEnd(events).content.map((part) => part.type)).toEqual(['provider', 'text']);
  },
  'openai-responses/unknown-call': () =>
    withModel('openai-responses/unknown-call', async (model) => {
      const error = await model.generate(ASK).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'unsupported_call', providerCode: 'teleport_call', retryable: false });
      expect(turnOfUnsupportedCall(error)?.content).toEqual([
        { type: 'provider', provider: 'openai', kind: 'teleport_call', data: TELEPORT },
      ]);
    }),
  'openai-responses/unknown-call.chunks': async () => {
    const events = await streamOf('openai-responses/unknown-call.chunks');
    expect(events.filter((event) => event.type === 'provider-part')).toHaveLength(1);
    expect(streamError(events)).toMatchObject({ code: 'unsupported_call', providerCode: 'teleport_call' });
  },
  'openai-responses/http-500': () =>
    withModel('openai-responses/http-500', (model) =>
      expect(model.generate(ASK)).rejects.toMatchObject({ code: 'server_error', status: 500, retryable: true }),
    ),
  'openai-responses/http-503': () =>
    withModel('openai-responses/http-503', (model) =>
      expect(model.generate(ASK)).rejects.toMatchObject({
        status: 503,
        retryable: true,
        providerCode: 'server_is_overloaded',
      }),
    ),
};

const PROTOCOLS: readonly CassetteProtocol[] = ['openai-chat', 'openai-responses'];
const NAMES = PROTOCOLS.flatMap((protocol) => listCassettes({ protocol, directory: syntheticCassettesDirectory() }));

describe('synthetic OpenAI cassettes', () => {
  it('exercises every one of them', () => {
    expect(NAMES.length).toBeGreaterThan(0);
    expect(NAMES.sort()).toEqual(Object.keys(EXPECTATIONS).sort());
  });
  it.each(NAMES)('%s', async (name) => {
    await EXPECTATIONS[name]?.();
  });
});
