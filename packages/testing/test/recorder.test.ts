import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCassette, SCRUBBED, startRecorder, startReplayServer } from '../src/index.js';

// Look-alike secrets: long enough to be erased wherever they reappear, fake enough to be harmless.
const API_KEY = 'sk-ant-test-0123456789abcdef';
const BEARER = 'sk-proj-test-fedcba9876543210';
const QUERY_KEY = 'AIzaTest-query-key-0011223344';
const COOKIE = 'session=cookie-value-5566778899';
const SET_COOKIE = '_cfuvid=upstream-cookie-aabbccddeeff; HttpOnly; Path=/';
const ORGANIZATION = 'org-test-organization-42';
const SECRETS = [API_KEY, BEARER, QUERY_KEY, COOKIE, 'upstream-cookie-aabbccddeeff', ORGANIZATION];

const SSE_HEAD = 'event: message_start\ndata: {"type":"message_start"}\n\n';
const SSE_TAIL =
  'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"partial_json":"{\\"a\\":1}"}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n';

interface Upstream {
  readonly url: string;
  readonly seen: { path: string; headers: IncomingHttpHeaders; body: string }[];
  /** Lets the streaming route send the rest of its events. */
  releaseStream: () => void;
  close(): Promise<void>;
}

// A stand-in for the provider on 127.0.0.1: the tests never reach the internet.
async function startUpstream(): Promise<Upstream> {
  const seen: Upstream['seen'] = [];
  let releaseStream = () => {};
  const released = new Promise<void>((resolve) => {
    releaseStream = resolve;
  });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://upstream');
      seen.push({ path: `${url.pathname}${url.search}`, headers: req.headers, body: Buffer.concat(chunks).toString() });
      if (url.pathname === '/v1/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
        res.write(SSE_HEAD);
        void released.then(() => res.end(SSE_TAIL));
        return;
      }
      // The upstream echoes the key in an error text, as some APIs do: the recorder must still not keep it.
      const body = JSON.stringify({ id: 'msg_1', echo: `key ${API_KEY} was used` });
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'set-cookie': SET_COOKIE,
        'anthropic-organization-id': ORGANIZATION,
        'retry-after': '3',
      });
      res.end(gzipSync(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    releaseStream: () => releaseStream(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let upstream: Upstream;
let folder: string;
beforeEach(async () => {
  upstream = await startUpstream();
  folder = await mkdtemp(join(tmpdir(), 'toolcircuit-recorder-'));
});
afterEach(async () => {
  upstream.releaseStream();
  await upstream.close();
  await rm(folder, { recursive: true, force: true });
});

const secretHeaders = {
  'content-type': 'application/json',
  'x-api-key': API_KEY,
  authorization: `Bearer ${BEARER}`,
  cookie: COOKIE,
};

describe('startRecorder', () => {
  it('forwards requests with their headers, returns the upstream answer, and writes a scrubbed cassette', async () => {
    const outFile = join(folder, 'nested', 'anthropic.json');
    const recorder = await startRecorder({ target: upstream.url, protocol: 'anthropic-messages', outFile });
    const response = await fetch(`${recorder.url}/v1/messages?beta=true&key=${QUERY_KEY}`, {
      method: 'POST',
      headers: secretHeaders,
      body: JSON.stringify({ model: 'claude-test', messages: [] }),
    });
    // The client sees the real answer: gzip decoded by fetch, headers passed through.
    expect(await response.json()).toEqual({ id: 'msg_1', echo: `key ${API_KEY} was used` });
    expect(response.headers.get('retry-after')).toBe('3');
    expect(response.headers.get('set-cookie')).toBe(SET_COOKIE);
    // The upstream got the user's key untouched, and its own host.
    expect(upstream.seen[0]?.headers['x-api-key']).toBe(API_KEY);
    expect(upstream.seen[0]?.headers.authorization).toBe(`Bearer ${BEARER}`);
    expect(upstream.seen[0]?.headers.host).toBe(new URL(upstream.url).host);
    expect(upstream.seen[0]?.path).toBe(`/v1/messages?beta=true&key=${QUERY_KEY}`);
    expect(JSON.parse(upstream.seen[0]?.body ?? '')).toEqual({ model: 'claude-test', messages: [] });

    const cassette = await recorder.close();
    const written = await readFile(outFile, 'utf8');
    for (const secret of SECRETS) expect(written).not.toContain(secret);
    expect(JSON.parse(written)).toEqual(cassette);
    expect(cassette.provenance.kind).toBe('recorded');
    expect(cassette.model).toBe('claude-test');
    const [interaction] = cassette.interactions;
    expect(interaction?.request).toMatchObject({
      method: 'POST',
      path: '/v1/messages',
      query: { beta: 'true', key: SCRUBBED },
      body: { model: 'claude-test', messages: [] },
    });
    expect(interaction?.request.headers?.['x-api-key']).toBe(SCRUBBED);
    expect(interaction?.request.headers?.['authorization']).toBe(SCRUBBED);
    expect(interaction?.request.headers?.['cookie']).toBe(SCRUBBED);
    expect(interaction?.response.headers['set-cookie']).toBe(SCRUBBED);
    expect(interaction?.response.headers['anthropic-organization-id']).toBe(SCRUBBED);
    expect(interaction?.response.headers['retry-after']).toBe('3');
    // Stored decoded, so the transfer headers of the original bytes are gone.
    expect(interaction?.response.headers['content-encoding']).toBeUndefined();
    expect(interaction?.response.body).toEqual({
      kind: 'json',
      json: { id: 'msg_1', echo: `key ${SCRUBBED} was used` },
    });
  });

  it('passes SSE through as it streams and records the raw text byte-exact', async () => {
    const outFile = join(folder, 'stream.json');
    const recorder = await startRecorder({ target: upstream.url, protocol: 'anthropic-messages', outFile });
    const response = await fetch(`${recorder.url}/v1/stream`, { method: 'POST', headers: secretHeaders, body: '{}' });
    const reader = response.body?.getReader();
    if (reader === undefined) throw new Error('no body');
    const decoder = new TextDecoder();
    let text = '';
    // The upstream holds its tail until the head has reached the client: a buffering proxy never gets here.
    while (!text.includes(SSE_HEAD)) {
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended before its first event');
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toBe(SSE_HEAD);
    upstream.releaseStream();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toBe(SSE_HEAD + SSE_TAIL);

    const cassette = await recorder.close();
    expect(cassette.interactions[0]?.response.body).toEqual({ kind: 'text', text: SSE_HEAD + SSE_TAIL });
    expect(cassette.interactions[0]?.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  });

  it('writes a cassette the replay server serves back identically', async () => {
    const outFile = join(folder, 'anthropic', 'round-trip.json');
    const recorder = await startRecorder({
      target: upstream.url,
      protocol: 'anthropic-messages',
      outFile,
      note: 'recorder test',
    });
    const first = await fetch(`${recorder.url}/v1/messages`, { method: 'POST', headers: secretHeaders, body: '{}' });
    const recordedJson: unknown = await first.json();
    // A streamed request says so in its body, as the SDKs do; the replay checks it against the recorded answer.
    const streamed = fetch(`${recorder.url}/v1/stream`, {
      method: 'POST',
      headers: secretHeaders,
      body: '{"stream":true}',
    });
    upstream.releaseStream();
    const recordedText = await (await streamed).text();
    await recorder.close();

    const cassette = loadCassette('anthropic/round-trip', { directory: folder });
    expect(cassette.provenance).toMatchObject({ kind: 'recorded', note: 'recorder test' });
    const replay = await startReplayServer(cassette);
    try {
      const again = await fetch(`${replay.url}/v1/messages`, { method: 'POST', body: '{}' });
      expect(await again.json()).toEqual({ ...(recordedJson as object), echo: `key ${SCRUBBED} was used` });
      const againStream = await fetch(`${replay.url}/v1/stream`, { method: 'POST', body: '{"stream":true}' });
      expect(await againStream.text()).toBe(recordedText);
      expect(replay.mismatches).toEqual([]);
    } finally {
      await replay.close();
    }
  });

  it('answers 502 when the upstream cannot be reached, records nothing, and refuses to write an empty cassette', async () => {
    const closed = await startUpstream();
    const target = closed.url;
    await closed.close();
    const outFile = join(folder, 'empty.json');
    const recorder = await startRecorder({ target, protocol: 'openai-chat', outFile });
    const response = await fetch(`${recorder.url}/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('recorder_upstream_error');
    expect(recorder.failures).toHaveLength(1);
    await expect(recorder.close()).rejects.toThrow(/nothing was recorded/);
    await expect(stat(outFile)).rejects.toThrow();
  });
});
