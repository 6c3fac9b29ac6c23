import { type ModelRequest, type ModelTurn, ProviderError, turnOfUnsupportedCall } from '@toolcircuit/core';
import {
  followUpRequest,
  listCassettes,
  loadSyntheticCassette,
  type ReplayServer,
  syntheticCassettesDirectory,
} from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { collect, errorEvent, turnEnd } from './support/collect.js';
import { SDKS, type Sdk } from './support/gemini-cassette.js';
import { modelFor, withReplay } from './support/replay.js';

// The committed synthetic Gemini cassettes (packages/testing/synthetic-cassettes/gemini): the shapes no public
// recording has, each through both official SDKs and the replay server, streamed or not.
const NAMES = listCassettes({ protocol: 'gemini', directory: syntheticCassettesDirectory() });
const ASK: ModelRequest = { messages: [{ role: 'user', content: 'Go.' }], tools: [] };

function run<T>(name: string, body: (server: ReplayServer) => Promise<T>): Promise<T> {
  return withReplay(loadSyntheticCassette(name), async (server) => {
    const result = await body(server);
    expect(server.mismatches).toEqual([]);
    return result;
  });
}

const IMAGE = {
  type: 'provider',
  provider: 'google',
  kind: 'inlineData',
  data: { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' }, thoughtSignature: 'CsYBSyntheticSig' },
};

const EXPECTATIONS: Readonly<Record<string, (sdk: Sdk) => Promise<void>>> = {
  'gemini/unknown-part': (sdk) =>
    run('gemini/unknown-part', async (server) => {
      const model = modelFor(sdk, server);
      const turn = await model.generate(ASK);
      expect(turn.content).toEqual([{ type: 'text', text: 'Here it is:' }, IMAGE, { type: 'text', text: 'Done.' }]);
      await model.generate(followUpRequest(ASK, turn, 'And?'));
      // Sent back in its place on the model's content, with its signature.
      const contents = (server.received[1]?.body as { contents: { role: string; parts: unknown[] }[] } | undefined)
        ?.contents;
      expect(contents?.[1]).toEqual({ role: 'model', parts: [{ text: 'Here it is:' }, IMAGE.data, { text: 'Done.' }] });
    }),
  'gemini/unknown-part.chunks': (sdk) =>
    run('gemini/unknown-part.chunks', async (server) => {
      const events = await collect(modelFor(sdk, server).stream?.(ASK));
      expect(events.filter((event) => event.type === 'provider-part')).toEqual([
        { type: 'provider-part', part: IMAGE },
      ]);
      expect(turnEnd(events).turn.content).toEqual([
        { type: 'text', text: 'Here it is:' },
        IMAGE,
        { type: 'text', text: 'Done.' },
      ]);
    }),
  'gemini/unknown-call-part': (sdk) =>
    run('gemini/unknown-call-part', async (server) => {
      const error = await modelFor(sdk, server)
        .generate(ASK)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: 'unsupported_call', providerCode: 'teleportCall', retryable: false });
      expect((turnOfUnsupportedCall(error) as ModelTurn).content).toEqual([
        { type: 'provider', provider: 'google', kind: 'teleportCall', data: { teleportCall: { to: 'mars' } } },
      ]);
    }),
  'gemini/unknown-call-part.chunks': (sdk) =>
    run('gemini/unknown-call-part.chunks', async (server) => {
      const events = await collect(modelFor(sdk, server).stream?.(ASK));
      expect(events.filter((event) => event.type === 'provider-part')).toHaveLength(1);
      expect(errorEvent(events).error).toMatchObject({ code: 'unsupported_call', providerCode: 'teleportCall' });
    }),
  'gemini/stream-error-chunk.chunks': (sdk) =>
    run('gemini/stream-error-chunk.chunks', async (server) => {
      const events = await collect(modelFor(sdk, server).stream?.(ASK));
      expect(events[0]).toEqual({ type: 'text-delta', text: 'Partial' });
      expect(errorEvent(events).error).toMatchObject({ code: 'overloaded', retryable: true });
    }),
  'gemini/http-500': (sdk) =>
    run('gemini/http-500', (server) =>
      expect(modelFor(sdk, server).generate(ASK)).rejects.toMatchObject({
        code: 'server_error',
        status: 500,
        retryable: true,
      }),
    ),
  'gemini/http-503': (sdk) =>
    run('gemini/http-503', (server) =>
      expect(modelFor(sdk, server).generate(ASK)).rejects.toMatchObject({
        code: 'overloaded',
        status: 503,
        retryable: true,
      }),
    ),
};

describe('synthetic Gemini cassettes', () => {
  it('exercises every one of them', () => {
    expect(NAMES.length).toBeGreaterThan(0);
    expect(NAMES).toEqual(Object.keys(EXPECTATIONS).sort());
  });
  describe.each(SDKS)('over %s', (sdk) => {
    it.each(NAMES)('%s', async (name) => {
      await EXPECTATIONS[name]?.(sdk);
    });
  });
});
