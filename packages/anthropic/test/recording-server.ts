// A node:http server on 127.0.0.1 that keeps the exact bytes of every request body. The replay server parses
// bodies, which would hide a difference in key order, spacing or escaping; these tests compare the bytes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface RecordedRequest {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bytes: Buffer;
}

/** An answer prepared as text, so the server serialises nothing of its own. */
export interface ScriptedReply {
  readonly contentType: 'application/json' | 'text/event-stream';
  readonly text: string;
}

export interface RecordingServer {
  /** `http://127.0.0.1:PORT`, a base URL for the SDK. */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** Answers each request with `reply(request, index)`; closed after each test. */
export async function startRecordingServer(
  reply: (request: RecordedRequest, index: number) => ScriptedReply,
): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const request: RecordedRequest = { path: url.pathname, headers, bytes: Buffer.concat(chunks) };
      requests.push(request);
      const answer = reply(request, requests.length - 1);
      res.writeHead(200, { 'content-type': answer.contentType });
      res.end(answer.text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests };
}
