import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { JsonValue } from '@toolcircuit/core';
import type { Cassette, CassetteProtocol, Interaction, RecordedBody, RecordedRequest } from '../cassettes/cassette.js';
import { validateCassette } from '../cassettes/validate-cassette.js';
import { flattenHeaders } from '../http/flatten-headers.js';
import { eraseSecrets, scrubHeaders, scrubQuery } from './scrub-secrets.js';

export interface RecorderOptions {
  /** Base URL of the real API, e.g. `https://api.anthropic.com`. A path prefix (`…/openai`) is kept. */
  readonly target: string;
  readonly protocol: CassetteProtocol;
  /** Where `close()` writes the cassette; missing folders are created. */
  readonly outFile: string;
  /** The model id to store; defaults to the first request body's `model`, or the Gemini path's model. */
  readonly model?: string;
  readonly note?: string;
  /** Header names to scrub on top of {@link SECRET_HEADERS}. */
  readonly scrubHeaders?: readonly string[];
}

export interface Recorder {
  /** `http://127.0.0.1:PORT`: give it to the SDK as its base URL, exactly as for the replay server. */
  readonly url: string;
  /** Exchanges captured so far, scrubbed, in the order the requests arrived. */
  readonly interactions: readonly Interaction[];
  /** Upstream failures (connection refused, undecodable body); such exchanges are not recorded. */
  readonly failures: readonly string[];
  /** Stops listening, writes `outFile` and returns the cassette. Throws if nothing was recorded. */
  close(): Promise<Cassette>;
}

// Hop-by-hop headers belong to one connection; forwarding them would corrupt the next hop's framing.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
// Stored bodies are decoded and re-framed, so headers about the original transfer would lie on replay.
const TRANSFER_HEADERS = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

/**
 * A recording proxy on 127.0.0.1. Point an official SDK at `url` with a real key: each request is
 * forwarded to `target` unchanged (the key travels in the SDK's own headers) and the answer streams back
 * chunk by chunk, so SSE arrives as it is produced. Each exchange is captured, decoded (gzip, deflate,
 * br) and scrubbed of keys, cookies and account ids before anything is written.
 */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const target = new URL(options.target);
  const prefix = target.pathname.replace(/\/$/, '');
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const slots: (Interaction | undefined)[] = [];
  const failures: string[] = [];
  const secrets: string[] = [];

  const server = createServer((req, res) => {
    const slot = slots.length;
    slots.push(undefined);
    const fail = (message: string) => {
      failures.push(`request #${slot + 1} ${req.method} ${req.url}: ${message}`);
      if (!res.headersSent) {
        res.statusCode = 502;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ error: { type: 'recorder_upstream_error', message: `recorder: ${message}` } }));
      } else {
        res.destroy();
      }
    };
    void readAll(req).then(
      (requestBytes) => {
        const incoming = new URL(req.url ?? '/', 'http://127.0.0.1');
        const upstream = send(
          {
            protocol: target.protocol,
            hostname: target.hostname,
            port: target.port,
            method: req.method,
            path: `${prefix}${incoming.pathname}${incoming.search}`,
            headers: { ...forwardable(req.headers), host: target.host },
          },
          (upstreamRes) => {
            res.writeHead(upstreamRes.statusCode ?? 502, forwardable(upstreamRes.headers));
            res.flushHeaders();
            const chunks: Buffer[] = [];
            upstreamRes.on('data', (chunk: Buffer) => {
              chunks.push(chunk);
              res.write(chunk);
            });
            upstreamRes.on('error', (error) => fail(`upstream response failed: ${error.message}`));
            upstreamRes.on('end', () => {
              res.end();
              try {
                slots[slot] = capture(req, incoming, requestBytes, upstreamRes, Buffer.concat(chunks));
              } catch (error) {
                failures.push(`request #${slot + 1}: ${(error as Error).message}`);
              }
            });
          },
        );
        upstream.on('error', (error) => fail(`cannot reach ${target.origin}: ${error.message}`));
        upstream.end(requestBytes);
      },
      (error: unknown) => fail(`reading the request failed: ${String(error)}`),
    );
  });

  const capture = (
    req: IncomingMessage,
    incoming: URL,
    requestBytes: Buffer,
    upstreamRes: IncomingMessage,
    responseBytes: Buffer,
  ): Interaction => {
    const requestHeaders = scrubHeaders(flattenHeaders(req.headers), options.scrubHeaders);
    const query = scrubQuery(Object.fromEntries(incoming.searchParams));
    const responseHeaders = scrubHeaders(flattenHeaders(upstreamRes.headers), options.scrubHeaders);
    secrets.push(...requestHeaders.secrets, ...query.secrets, ...responseHeaders.secrets);
    const requestText = decode(requestBytes, req.headers['content-encoding']).toString('utf8');
    const request: RecordedRequest = {
      method: req.method ?? 'GET',
      path: incoming.pathname,
      ...(Object.keys(query.value).length > 0 ? { query: query.value } : {}),
      headers: without(requestHeaders.value, new Set(['host', ...TRANSFER_HEADERS])),
      ...(requestText === '' ? {} : { body: parseJsonOrText(requestText) }),
    };
    const contentType = upstreamRes.headers['content-type'] ?? '';
    const text = decode(responseBytes, upstreamRes.headers['content-encoding']).toString('utf8');
    return {
      request,
      response: {
        status: upstreamRes.statusCode ?? 0,
        headers: without(responseHeaders.value, TRANSFER_HEADERS),
        body: bodyOf(text, contentType),
      },
    };
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const recorded = () => slots.filter((slot): slot is Interaction => slot !== undefined);

  return {
    url: `http://127.0.0.1:${port}`,
    get interactions() {
      return recorded();
    },
    failures,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
      const interactions = recorded();
      if (interactions.length === 0) {
        const why = failures.length > 0 ? `: ${failures.join('; ')}` : '';
        throw new Error(`recorder: nothing was recorded, ${options.outFile} not written${why}`);
      }
      const model = options.model ?? modelOf(interactions);
      const cassette: Cassette = eraseSecrets(
        {
          format: 'toolcircuit-cassette/1',
          protocol: options.protocol,
          ...(model === undefined ? {} : { model }),
          provenance: {
            kind: 'recorded',
            recordedAt: new Date().toISOString(),
            ...(options.note === undefined ? {} : { note: options.note }),
          },
          interactions,
        },
        secrets,
      );
      validateCassette(cassette, options.outFile);
      await mkdir(dirname(options.outFile), { recursive: true });
      await writeFile(options.outFile, `${JSON.stringify(cassette, null, 2)}\n`);
      return cassette;
    },
  };
}

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'host') out[name] = value;
  }
  return out;
}

function without(headers: Record<string, string>, drop: ReadonlySet<string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop.has(name)));
}

function decode(bytes: Buffer, encoding: string | string[] | undefined): Buffer {
  const name = (Array.isArray(encoding) ? encoding.join(',') : (encoding ?? '')).trim().toLowerCase();
  if (name === '' || name === 'identity') return bytes;
  if (name === 'gzip' || name === 'x-gzip') return gunzipSync(bytes);
  if (name === 'deflate') return inflateSync(bytes);
  if (name === 'br') return brotliDecompressSync(bytes);
  throw new Error(`cannot decode content-encoding "${name}"; the client got the bytes, the cassette did not`);
}

function bodyOf(text: string, contentType: string): RecordedBody {
  // SSE stays raw text so replay hands the SDK's parser the exact framing the API sent.
  if (contentType.includes('event-stream')) return { kind: 'text', text };
  if (contentType.includes('json')) {
    try {
      return { kind: 'json', json: JSON.parse(text) as JsonValue };
    } catch {
      return { kind: 'text', text };
    }
  }
  return { kind: 'text', text };
}

function parseJsonOrText(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

function modelOf(interactions: readonly Interaction[]): string | undefined {
  for (const { request } of interactions) {
    const body = request.body;
    if (typeof body === 'object' && body !== null && !Array.isArray(body) && typeof body['model'] === 'string') {
      return body['model'];
    }
    const gemini = /\/models\/([^/:]+):/.exec(request.path);
    if (gemini?.[1] !== undefined) return gemini[1];
  }
  return undefined;
}
