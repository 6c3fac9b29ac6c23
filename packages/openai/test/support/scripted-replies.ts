import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as it arrived: the exact body text (UTF-8 bytes, decoded) and the raw headers. */
export interface RecordedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly bodyText: string;
}

/** An answer prepared as text in advance, so the server serialises nothing while a test watches. */
export interface ScriptedReply {
  readonly contentType: 'application/json' | 'text/event-stream';
  readonly text: string;
}

export interface RecordingServer {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A node:http server on 127.0.0.1 that keeps the bytes of every request body (the replay server parses them,
 * which would hide a difference in key order or escaping) and answers the n-th request with `replies[n]`.
 */
export async function startRecordingServer(replies: readonly ScriptedReply[]): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      requests.push({ path: url.pathname, headers: req.headers, bodyText: Buffer.concat(chunks).toString('utf8') });
      const reply = replies[requests.length - 1];
      if (reply === undefined) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"recording server: no reply left","type":"server_error"}}');
        return;
      }
      res.writeHead(200, { 'content-type': reply.contentType });
      res.end(reply.text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Chat Completions SSE: `data:` lines only, then `[DONE]`. */
export function chatSse(chunks: readonly unknown[]): ScriptedReply {
  const lines = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
  return { contentType: 'text/event-stream', text: `${lines.join('')}data: [DONE]\n\n` };
}

/** Responses SSE: each event with an `event:` line equal to its `type`. */
export function typedSse(events: readonly { readonly type: string; readonly [key: string]: unknown }[]): ScriptedReply {
  const lines = events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  return { contentType: 'text/event-stream', text: lines.join('') };
}

export function jsonReply(json: unknown): ScriptedReply {
  return { contentType: 'application/json', text: JSON.stringify(json) };
}
