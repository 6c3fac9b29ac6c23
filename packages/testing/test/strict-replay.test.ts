import { afterEach, describe, expect, it } from 'vitest';
import {
  asksForStream,
  type Interaction,
  REPLAY_MISMATCH_STATUS,
  ReplayIncompleteError,
  type ReplayServer,
  recordedAsStream,
} from '../src/index.js';
import { replayServers } from './support/serve-interactions.js';

const servers = replayServers('strict replay test');
afterEach(() => servers.closeAll());
const serve = servers.serve;

const jsonAnswer = (requestBody?: Interaction['request']['body']): Interaction => ({
  request: { method: 'POST', path: '/v1/messages', ...(requestBody === undefined ? {} : { body: requestBody }) },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body: { kind: 'json', json: { ok: 1 } } },
});
const sseAnswer: Interaction = {
  request: { method: 'POST', path: '/v1/messages' },
  response: {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    body: { kind: 'sse', events: [{ event: 'message_stop', data: '{"type":"message_stop"}' }] },
  },
};
const rawSseAnswer: Interaction = {
  request: { method: 'POST', path: '/v1/messages' },
  response: {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    body: { kind: 'text', text: 'data: {}\n\n' },
  },
};
const rateLimited: Interaction = {
  request: { method: 'POST', path: '/v1/messages' },
  response: { status: 429, headers: {}, body: { kind: 'json', json: { error: { type: 'rate_limit_error' } } } },
};

const post = (server: ReplayServer, body: unknown, path = '/v1/messages') =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('strict replay: what was asked against what was recorded', () => {
  it('a streamed request answered from a JSON recording is a mismatch with a hint, not a broken stream', async () => {
    const server = await serve([jsonAnswer()]);
    const response = await post(server, { stream: true });
    expect(response.status).toBe(REPLAY_MISMATCH_STATUS);
    const { error } = (await response.json()) as { error: { message: string; hint: string } };
    expect(error.message).toContain('asks for a stream');
    expect(error.hint).toContain('--no-stream');
    expect(server.mismatches).toMatchObject([{ index: 0, reason: expect.stringContaining('single JSON body') }]);
    expect(server.remaining).toBe(1);
  });

  it('a plain request answered from a streamed recording (SSE events or raw SSE text) is a mismatch too', async () => {
    for (const recorded of [sseAnswer, rawSseAnswer]) {
      const server = await serve([recorded]);
      const response = await post(server, { model: 'm' });
      expect(response.status).toBe(REPLAY_MISMATCH_STATUS);
      expect(server.mismatches[0]?.reason).toBe(
        'the request asks for a single JSON body, the recorded answer is a stream',
      );
      expect(server.mismatches[0]?.hint).toMatch(/streaming on/);
    }
  });

  it('matching kinds are served, and an error status is served to either kind (APIs answer both with JSON)', async () => {
    const server = await serve([sseAnswer, jsonAnswer(), rateLimited, rateLimited]);
    expect((await post(server, { stream: true })).status).toBe(200);
    expect((await post(server, { stream: false })).status).toBe(200);
    expect((await post(server, { stream: true })).status).toBe(429);
    expect((await post(server, {})).status).toBe(429);
    expect(server.mismatches).toEqual([]);
  });

  it("counts Gemini's :streamGenerateContent path as asking for a stream, and `stream: true` elsewhere", () => {
    expect(asksForStream({ path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent', body: {} })).toBe(true);
    expect(asksForStream({ path: '/v1beta/models/gemini-2.5-flash:generateContent', body: {} })).toBe(false);
    expect(asksForStream({ path: '/v1/messages', body: { stream: true } })).toBe(true);
    expect(asksForStream({ path: '/v1/messages', body: { stream: 'yes' } })).toBe(false);
    expect(recordedAsStream(sseAnswer)).toBe(true);
    expect(recordedAsStream(jsonAnswer())).toBe(false);
    expect(recordedAsStream(rateLimited)).toBeUndefined();
  });

  it('a path naming another model says which model the cassette was recorded with', async () => {
    const recorded = '/v1beta/models/gemini-2.5-flash:generateContent';
    const server = await serve([{ ...jsonAnswer(), request: { method: 'POST', path: recorded } }]);
    await post(server, {}, '/v1beta/models/gemini-2.0-flash:generateContent');
    expect(server.mismatches[0]?.hint).toBe(
      'the path names model gemini-2.0-flash, the cassette was recorded with gemini-2.5-flash: use that model id',
    );
  });

  it('with matchBody, a recorded body field that differs is a mismatch naming its pointer; extra fields are fine', async () => {
    const recorded = { model: 'claude-haiku-5-5', max_tokens: 64, tools: [{ name: 'a' }] };
    const server = await serve([jsonAnswer(recorded), jsonAnswer(recorded)], { matchBody: true });
    expect((await post(server, { ...recorded, metadata: { user_id: 'x' } })).status).toBe(200);
    expect((await post(server, { ...recorded, tools: [{ name: 'b' }] })).status).toBe(REPLAY_MISMATCH_STATUS);
    expect(server.mismatches[0]?.reason).toBe('body /tools/0/name: recorded "a", got "b"');
  });

  it('without matchBody, bodies are not compared', async () => {
    const server = await serve([jsonAnswer({ model: 'one' })]);
    expect((await post(server, { model: 'other' })).status).toBe(200);
  });
});

describe("isDone / assertDone (nock's isDone)", () => {
  it('is done only once every interaction was served; assertDone names what is left and what mismatched', async () => {
    const server = await serve([jsonAnswer(), jsonAnswer()]);
    expect(server.isDone()).toBe(false);
    await post(server, {});
    await post(server, { stream: true });
    expect(server.isDone()).toBe(false);
    expect(() => server.assertDone()).toThrow(ReplayIncompleteError);
    expect(() => server.assertDone()).toThrow(
      /1 interaction\(s\) never served \(next: POST \/v1\/messages\); request #2 mismatched: the request asks for a stream/,
    );
    await post(server, {});
    expect(server.isDone()).toBe(true);
    // Served, but a request mismatched on the way: still not a clean replay.
    expect(() => server.assertDone()).toThrow(/request #2 mismatched/);
  });

  it('a clean replay passes assertDone', async () => {
    const server = await serve([jsonAnswer()]);
    await post(server, {});
    expect(() => server.assertDone()).not.toThrow();
  });

  it('listens on the port asked for', async () => {
    const first = await serve([]);
    const port = Number(new URL(first.url).port);
    await first.close();
    servers.forget();
    const server = await serve([], { port });
    expect(server.url).toBe(`http://127.0.0.1:${port}`);
  });
});
