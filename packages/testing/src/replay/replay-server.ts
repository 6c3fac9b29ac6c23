import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonValue } from '@toolcircuit/core';
import type { Cassette, Interaction, RecordedBody } from './cassette.js';
import { requestHead } from './request-head.js';

/** What the replay server saw for one request, for assertions on outgoing bodies. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: JsonValue | undefined;
}

/** A request that did not match the cassette; the server answered 599 and kept going. */
export interface ReplayMismatch {
  readonly index: number;
  readonly reason: string;
  readonly received: ReceivedRequest;
}

export interface ReplayServer {
  /** `http://127.0.0.1:PORT`, to be given to an SDK as its base URL (see each adapter's docs for the suffix). */
  readonly url: string;
  readonly received: readonly ReceivedRequest[];
  readonly mismatches: readonly ReplayMismatch[];
  /** Interactions not yet served. */
  readonly remaining: number;
  close(): Promise<void>;
}

export interface ReplayOptions {
  /**
   * Decide whether a received request may be answered by the next interaction. The default compares
   * method and path. Return a reason string to refuse.
   */
  readonly match?: (received: ReceivedRequest, expected: Interaction) => string | undefined;
}

/** The status the replay server answers with when a request does not match: outside every real API's range. */
export const REPLAY_MISMATCH_STATUS = 599;

export function defaultMatch(received: ReceivedRequest, expected: Interaction): string | undefined {
  if (received.method !== expected.request.method) {
    return `method ${received.method} ≠ recorded ${expected.request.method}`;
  }
  if (received.path !== expected.request.path) return `path ${received.path} ≠ recorded ${expected.request.path}`;
  return undefined;
}

/**
 * Serves a cassette's interactions in order on 127.0.0.1, so an official SDK exercises its real HTTP,
 * retry and SSE code. Each request must match the next interaction; a mismatch is answered with
 * {@link REPLAY_MISMATCH_STATUS} and a body that says what differed, and is kept in `mismatches`.
 */
export async function startReplayServer(cassette: Cassette, options: ReplayOptions = {}): Promise<ReplayServer> {
  const match = options.match ?? defaultMatch;
  const received: ReceivedRequest[] = [];
  const mismatches: ReplayMismatch[] = [];
  let next = 0;

  const server = createServer((req, res) => {
    readRequest(req).then(
      (request) => {
        received.push(request);
        const index = next;
        const expected = cassette.interactions[index];
        const reason =
          expected === undefined
            ? `cassette has ${cassette.interactions.length} interaction(s); request #${index + 1} is one too many`
            : match(request, expected);
        if (reason !== undefined || expected === undefined) {
          const why = reason ?? 'no interaction left';
          mismatches.push({ index, reason: why, received: request });
          sendMismatch(res, index, why, request, expected);
          return;
        }
        next += 1;
        sendRecorded(res, expected.response.status, expected.response.headers, expected.response.body);
      },
      (error: unknown) => {
        // A client that hangs up mid-body must not crash the test process with an unhandled rejection.
        if (!res.headersSent && !res.destroyed) {
          sendJson(res, 500, { error: { type: 'replay_error', message: `replay: ${String(error)}` } });
        }
      },
    );
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    mismatches,
    get remaining() {
      return cassette.interactions.length - next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function readRequest(req: IncomingMessage): Promise<ReceivedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return {
    ...requestHead(req),
    body: text === '' ? undefined : parseJsonOrText(text),
  };
}

function parseJsonOrText(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

// Headers that describe the recorded transfer, not the content: replaying them would lie about our body.
const HOP_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

function sendRecorded(
  res: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
  body: RecordedBody,
): void {
  for (const [key, value] of Object.entries(headers)) {
    if (!HOP_HEADERS.has(key.toLowerCase())) res.setHeader(key, value);
  }
  if (body.kind === 'json') {
    sendJson(res, status, body.json);
    return;
  }
  if (body.kind === 'text') {
    // Byte-exact: recorded SSE framing (CRLF, trailing spaces) is what the SDK's own parser must face.
    res.statusCode = status;
    res.end(body.text);
    return;
  }
  res.statusCode = status;
  // Keep a recorded `text/event-stream; charset=utf-8`; only fill in what the cassette does not say.
  if (!res.hasHeader('content-type')) res.setHeader('content-type', 'text/event-stream');
  if (!res.hasHeader('cache-control')) res.setHeader('cache-control', 'no-cache');
  for (const event of body.events) {
    const lines = event.event === undefined ? [] : [`event: ${event.event}`];
    // A raw CR or LF inside one data line would end the line early; the SSE way is one data: line per line.
    for (const line of event.data.split(/\r\n|\r|\n/)) lines.push(`data: ${line}`);
    res.write(`${lines.join('\n')}\n\n`);
  }
  res.end();
}

function sendMismatch(
  res: ServerResponse,
  index: number,
  reason: string,
  request: ReceivedRequest,
  expected: Interaction | undefined,
): void {
  // SDKs retry 5xx answers; the stainless-generated ones (Anthropic, OpenAI) skip retries on this header,
  // so a mismatch fails once and fast instead of after several backoffs that all mismatch too.
  res.setHeader('x-should-retry', 'false');
  sendJson(res, REPLAY_MISMATCH_STATUS, {
    error: {
      type: 'replay_mismatch',
      message: `replay: request #${index + 1} (${request.method} ${request.path}) does not match the cassette: ${reason}`,
      index,
      received: { method: request.method, path: request.path },
      expected: expected === undefined ? null : { method: expected.request.method, path: expected.request.path },
    },
  });
}

function sendJson(res: ServerResponse, status: number, json: JsonValue): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(json));
}
