import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSourceDirectory } from '../src/import/import-recorded.js';
import {
  type Interaction,
  loadCassette,
  parseSse,
  REPLAY_MISMATCH_STATUS,
  type ReplayServer,
  startReplayServer,
} from '../src/index.js';
import { replayServers } from './support/serve-interactions.js';

const servers = replayServers('replay-server test');
afterEach(() => servers.closeAll());
const serve = servers.serve;

const json = (path: string, value: number): Interaction => ({
  request: { method: 'POST', path },
  response: { status: 200, headers: {}, body: { kind: 'json', json: { value } } },
});

const post = (server: ReplayServer, path: string, body: unknown = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('startReplayServer', () => {
  it('serves interactions in order and counts what remains', async () => {
    const server = await serve([json('/v1/messages', 1), json('/v1/messages', 2)]);
    expect(server.remaining).toBe(2);
    expect(await (await post(server, '/v1/messages')).json()).toEqual({ value: 1 });
    expect(server.remaining).toBe(1);
    expect(await (await post(server, '/v1/messages')).json()).toEqual({ value: 2 });
    expect(server.remaining).toBe(0);
    expect(server.mismatches).toEqual([]);
  });

  it('answers a path mismatch with 599, a message naming both paths, and keeps the interaction for the next request', async () => {
    const server = await serve([json('/v1/messages', 1)]);
    const wrong = await post(server, '/v1/chat/completions');
    expect(wrong.status).toBe(REPLAY_MISMATCH_STATUS);
    expect(wrong.headers.get('x-should-retry')).toBe('false');
    const body = (await wrong.json()) as { error: { type: string; message: string; expected: unknown } };
    expect(body.error.type).toBe('replay_mismatch');
    expect(body.error.message).toContain('/v1/chat/completions');
    expect(body.error.message).toContain('/v1/messages');
    expect(body.error.expected).toEqual({ method: 'POST', path: '/v1/messages' });
    expect(server.mismatches).toHaveLength(1);
    expect(server.mismatches[0]?.index).toBe(0);
    expect(server.mismatches[0]?.reason).toBe('path /v1/chat/completions ≠ recorded /v1/messages');
    expect(server.mismatches[0]?.received.path).toBe('/v1/chat/completions');

    const right = await post(server, '/v1/messages');
    expect(right.status).toBe(200);
    expect(server.remaining).toBe(0);
  });

  it('refuses a method mismatch', async () => {
    const server = await serve([json('/v1/messages', 1)]);
    const response = await fetch(`${server.url}/v1/messages`);
    expect(response.status).toBe(REPLAY_MISMATCH_STATUS);
    expect(server.mismatches[0]?.reason).toBe('method GET ≠ recorded POST');
  });

  it('answers requests beyond the cassette with 599 and says it was one too many', async () => {
    const server = await serve([json('/v1/messages', 1)]);
    await post(server, '/v1/messages');
    const extra = await post(server, '/v1/messages');
    expect(extra.status).toBe(REPLAY_MISMATCH_STATUS);
    const body = (await extra.json()) as { error: { message: string; expected: unknown } };
    expect(body.error.message).toContain('request #2 is one too many');
    expect(body.error.expected).toBeNull();
    expect(server.mismatches.map((mismatch) => mismatch.index)).toEqual([1]);
  });

  it('keeps what it received: parsed JSON body, query and headers', async () => {
    const server = await serve([json('/v1beta/models/m:streamGenerateContent', 1)]);
    await fetch(`${server.url}/v1beta/models/m:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'x-goog-api-key': 'test-key' },
      body: JSON.stringify({ contents: [] }),
    });
    expect(server.received).toHaveLength(1);
    expect(server.received[0]).toMatchObject({
      method: 'POST',
      path: '/v1beta/models/m:streamGenerateContent',
      query: { alt: 'sse' },
      body: { contents: [] },
    });
    expect(server.received[0]?.headers['x-goog-api-key']).toBe('test-key');
  });

  it('lets a custom matcher refuse on more than the path', async () => {
    const server = await serve([json('/v1/messages', 1)], {
      match: (received) => (received.query['beta'] === 'true' ? undefined : 'expected ?beta=true'),
    });
    expect((await post(server, '/v1/messages')).status).toBe(REPLAY_MISMATCH_STATUS);
    expect(server.mismatches[0]?.reason).toBe('expected ?beta=true');
    expect((await post(server, '/v1/messages?beta=true')).status).toBe(200);
  });

  it('frames sse events with event names, one data line per line, blank-line separated', async () => {
    const server = await serve([
      {
        request: { method: 'POST', path: '/v1/messages' },
        response: {
          status: 200,
          headers: { 'content-type': 'text/event-stream; charset=utf-8' },
          body: {
            kind: 'sse',
            events: [{ event: 'message_start', data: '{"type":"message_start"}' }, { data: 'line one\nline two' }],
          },
        },
      },
    ]);
    const response = await post(server, '/v1/messages', { stream: true });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await response.text();
    expect(text).toBe('event: message_start\ndata: {"type":"message_start"}\n\ndata: line one\ndata: line two\n\n');
    expect(parseSse(text)).toEqual([
      { event: 'message_start', data: '{"type":"message_start"}' },
      { data: 'line one\nline two' },
    ]);
  });

  it('sends text bodies byte-exact with the recorded content-type (CRLF framing survives)', async () => {
    const raw = 'data: {"candidates":[]}\r\n\r\ndata: {"candidates":[{"finishReason":"STOP"}]}\r\n\r\n';
    const server = await serve([
      {
        request: { method: 'POST', path: '/v1beta/models/m:streamGenerateContent' },
        response: { status: 200, headers: { 'content-type': 'text/event-stream' }, body: { kind: 'text', text: raw } },
      },
    ]);
    const response = await post(server, '/v1beta/models/m:streamGenerateContent');
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(Buffer.from(await response.arrayBuffer()).toString('utf8')).toBe(raw);
  });

  it('replays status and headers such as retry-after, and drops stale transfer headers', async () => {
    const server = await serve([
      {
        request: { method: 'POST', path: '/v1/messages' },
        response: {
          status: 429,
          // A recorded content-length would not match the re-serialized body; it must not be replayed.
          headers: {
            'retry-after': '7',
            'x-should-retry': 'true',
            'content-length': '99999',
            'content-encoding': 'gzip',
          },
          body: { kind: 'json', json: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } } },
        },
      },
    ]);
    const response = await post(server, '/v1/messages');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(response.headers.get('x-should-retry')).toBe('true');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.json()).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
  });

  it('replays an imported raw SSE cassette byte for byte as the source file', async () => {
    const cassette = loadCassette('openai-chat/openai-python__test_parse_pydantic_tool__c6aa7e39.sse');
    const server = await startReplayServer(cassette);
    servers.track(server);
    const response = await post(server, '/v1/chat/completions', { stream: true });
    const source = readFileSync(
      join(defaultSourceDirectory(), 'openai-chat/openai-python__test_parse_pydantic_tool__c6aa7e39.sse.txt'),
    );
    expect(Buffer.from(await response.arrayBuffer()).equals(source)).toBe(true);
  });

  it('replays an imported data-lines cassette as a stream a client can assemble into the tool call', async () => {
    const cassette = loadCassette('anthropic/vercel-ai__issue-10781.1.chunks');
    const server = await startReplayServer(cassette);
    servers.track(server);
    const events = parseSse(await (await post(server, '/v1/messages', { stream: true })).text());
    // What an SSE client does: the event name is the payload type, and the JSON fragments join into the input.
    for (const event of events) expect(event.event).toBe(JSON.parse(event.data).type);
    const fragments = events
      .map((event) => JSON.parse(event.data) as { type: string; index?: number; delta?: { partial_json?: string } })
      .filter((payload) => payload.type === 'content_block_delta' && payload.index === 1)
      .map((payload) => payload.delta?.partial_json ?? '');
    expect(JSON.parse(fragments.join(''))).toEqual({ city: 'San Francisco' });
    expect(events.at(-1)?.event).toBe('message_stop');
  });
});
