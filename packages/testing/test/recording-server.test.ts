import { request } from 'node:http';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RecordingServer, type ReplyScript, type ScriptedReply, startRecordingServer } from '../src/index.js';

const servers: RecordingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(reply: ReplyScript): Promise<RecordingServer> {
  const server = await startRecordingServer(reply);
  servers.push(server);
  return server;
}

const OK: ScriptedReply = { contentType: 'application/json', text: '{"ok":true}' };

function post(url: string, body: Uint8Array | string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}

describe('startRecordingServer', () => {
  it('keeps the body byte for byte: key order, escapes and non-ASCII as sent', async () => {
    const server = await serve(() => OK);
    // Keys out of alphabetical order, an escaped and a literal é, an emoji, and spacing JSON.stringify never writes.
    const sent = '{"zeta": 1,"alpha":"\\u00e9 é — 🗂️","nested":{"b":[1.50,"\\n"],"a":null}}';
    await post(`${server.url}/v1/messages`, sent);

    const recorded = server.requests[0];
    expect(recorded?.text).toBe(sent);
    expect(recorded?.bytes.equals(Buffer.from(sent, 'utf8'))).toBe(true);
    expect(recorded?.bytes.length).toBeGreaterThan(sent.length);
  });

  it('keeps bytes that are not UTF-8 in `bytes`, where `text` cannot hold them', async () => {
    const server = await serve(() => OK);
    const sent = Uint8Array.from([0x7b, 0xff, 0x00, 0xc3, 0x7d]);
    await post(server.url, sent, { 'content-type': 'application/octet-stream' });

    expect(server.requests[0]?.bytes.equals(sent)).toBe(true);
    // The decoded text replaced the invalid bytes: it no longer encodes back to what was sent.
    expect(Buffer.from(server.requests[0]?.text ?? '', 'utf8').equals(sent)).toBe(false);
  });

  it('records method, path, query and headers as single lower-case strings', async () => {
    const server = await serve(() => OK);
    await new Promise<void>((resolve, reject) => {
      const outgoing = request(
        `${server.url}/v1/messages?beta=true&x=%C3%A9`,
        { method: 'PUT', headers: { 'X-Team': 'circuit', 'x-tag': ['first', 'second'] } },
        (response) => response.resume().on('end', resolve),
      );
      outgoing.on('error', reject);
      outgoing.end('{}');
    });

    const recorded = server.requests[0];
    expect(recorded?.method).toBe('PUT');
    expect(recorded?.path).toBe('/v1/messages');
    expect(recorded?.query).toEqual({ beta: 'true', x: 'é' });
    expect(recorded?.headers['x-team']).toBe('circuit');
    // Sent as two header lines, recorded as one value.
    expect(recorded?.headers['x-tag']).toBe('first, second');
    expect(Object.values(recorded?.headers ?? {}).every((value) => typeof value === 'string')).toBe(true);
  });

  it('answers each request with the scripted reply for its index, and records them in order', async () => {
    const seen: string[] = [];
    const server = await serve((recorded, index) => {
      seen.push(`${index}:${recorded.text}`);
      return index === 0
        ? { contentType: 'text/event-stream', text: 'data: first\n\n' }
        : { status: 201, contentType: 'application/json', text: `{"echo":${recorded.text}}` };
    });

    const first = await post(`${server.url}/one`, '"a"');
    const second = await post(`${server.url}/two`, '"b"');

    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    expect(await first.text()).toBe('data: first\n\n');
    expect(second.status).toBe(201);
    expect(await second.json()).toEqual({ echo: 'b' });
    expect(seen).toEqual(['0:"a"', '1:"b"']);
    expect(server.requests.map((recorded) => recorded.path)).toEqual(['/one', '/two']);
  });

  it('answers 500 with a JSON error, and records the request, when the script has no reply', async () => {
    const replies: readonly ScriptedReply[] = [OK];
    const server = await serve((_request, index) => replies[index]);

    expect((await post(`${server.url}/v1/chat`, '{}')).status).toBe(200);
    const missing = await post(`${server.url}/v1/chat`, '{"again":true}');

    expect(missing.status).toBe(500);
    expect(missing.headers.get('content-type')).toBe('application/json');
    expect(missing.headers.get('x-should-retry')).toBe('false');
    expect(await missing.json()).toEqual({
      error: {
        type: 'recording_server_error',
        message: 'recording server: no reply for request #2 (POST /v1/chat)',
      },
    });
    expect(server.requests.map((recorded) => recorded.text)).toEqual(['{}', '{"again":true}']);
  });

  it('answers 500 with the thrown message when the script throws', async () => {
    const server = await serve(() => {
      throw new Error('unexpected model in body');
    });

    const answer = await post(`${server.url}/v1/messages`, '{}');

    expect(answer.status).toBe(500);
    const body = (await answer.json()) as { error: { message: string } };
    expect(body.error.message).toBe(
      'recording server: the reply to request #1 (POST /v1/messages) threw: unexpected model in body',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('close() ends kept-alive connections and frees the port; a second close() resolves too', async () => {
    const server = await startRecordingServer(() => OK);
    const port = Number(new URL(server.url).port);
    // fetch keeps this connection open for reuse: close() must not wait for it to time out.
    expect((await post(server.url, '{}')).status).toBe(200);

    await server.close();
    await server.close();

    await expect(post(server.url, '{}')).rejects.toThrow();
    const reuse = createServer();
    await new Promise<void>((resolve, reject) => {
      reuse.once('error', reject);
      reuse.listen(port, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => reuse.close(() => resolve()));
  });
});
