import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonValue } from '@toolcircuit/core';
import type { Cassette, CassetteProtocol, Interaction, RecordedBody, RecordedResponse } from '../cassettes/cassette.js';
import { requestHead } from '../http/request-head.js';
import { type MatchFailure, matchRequest } from './match-request.js';
import type { ReceivedRequest, ReplayMismatch } from './received-request.js';
import { ReplayIncompleteError } from './replay-incomplete-error.js';

export type { ReceivedRequest, ReplayMismatch } from './received-request.js';

export interface ReplayServer {
  /** `http://127.0.0.1:PORT`, to be given to an SDK as its base URL (see each adapter's docs for the suffix). */
  readonly url: string;
  readonly received: readonly ReceivedRequest[];
  readonly mismatches: readonly ReplayMismatch[];
  /** Interactions not yet served. */
  readonly remaining: number;
  /** Like nock's `isDone()`: every interaction was served (mismatches aside). */
  isDone(): boolean;
  /** Throws {@link ReplayIncompleteError} when an interaction was never served or a request mismatched. */
  assertDone(): void;
  close(): Promise<void>;
}

export interface ReplayOptions {
  /**
   * Decide whether a received request may be answered by the next interaction. The default compares
   * method and path. Return a reason string to refuse.
   */
  readonly match?: (received: ReceivedRequest, expected: Interaction) => string | MatchFailure | undefined;
  /** With the default match, also require the recorded body fields (see `matchRequest`). Default false. */
  readonly matchBody?: boolean;
  /** Port on 127.0.0.1; 0 (the default) lets the system pick a free one. */
  readonly port?: number;
  /**
   * Changes the recorded response before it is sent, knowing the request it answers: e.g. `countedUsage`,
   * which reports the request's own token count as the provider would. Called for matched requests only.
   */
  readonly respond?: (
    received: ReceivedRequest,
    response: RecordedResponse,
    protocol: CassetteProtocol,
  ) => RecordedResponse;
}

/** The status the replay server answers with when a request does not match: outside every real API's range. */
export const REPLAY_MISMATCH_STATUS = 599;

/** Method, path, and stream or not (see `matchRequest`); the reason only. */
export function defaultMatch(received: ReceivedRequest, expected: Interaction): string | undefined {
  return matchRequest(received, expected)?.reason;
}

/**
 * Serves a cassette's interactions in order on 127.0.0.1, so an official SDK exercises its real HTTP,
 * retry and SSE code. Each request must match the next interaction; a mismatch is answered with
 * {@link REPLAY_MISMATCH_STATUS} and a body that says what differed, and is kept in `mismatches`.
 */
export async function startReplayServer(cassette: Cassette, options: ReplayOptions = {}): Promise<ReplayServer> {
  const match =
    options.match ??
    ((request: ReceivedRequest, expected: Interaction) =>
      matchRequest(request, expected, { body: options.matchBody === true }));
  const received: ReceivedRequest[] = [];
  const mismatches: ReplayMismatch[] = [];
  let next = 0;

  const server = createServer((req, res) => {
    readRequest(req).then(
      (request) => {
        received.push(request);
        const index = next;
        const expected = cassette.interactions[index];
        const failure: MatchFailure | undefined =
          expected === undefined
            ? {
                reason: `cassette has ${cassette.interactions.length} interaction(s); request #${index + 1} is one too many`,
                hint: 'the client made more requests than were recorded (a retry, or a longer conversation)',
              }
            : asFailure(match(request, expected));
        if (failure !== undefined || expected === undefined) {
          const mismatch: ReplayMismatch = {
            index,
            reason: failure?.reason ?? 'no interaction left',
            ...(failure?.hint === undefined ? {} : { hint: failure.hint }),
            received: request,
          };
          mismatches.push(mismatch);
          sendMismatch(res, mismatch, expected);
          return;
        }
        next += 1;
        let response = expected.response;
        try {
          if (options.respond !== undefined) response = options.respond(request, response, cassette.protocol);
        } catch (error) {
          sendJson(res, 500, { error: { type: 'replay_error', message: `replay: respond threw: ${String(error)}` } });
          return;
        }
        sendRecorded(res, response.status, response.headers, response.body);
      },
      (error: unknown) => {
        // A client that hangs up mid-body must not crash the test process with an unhandled rejection.
        if (!res.headersSent && !res.destroyed) {
          sendJson(res, 500, { error: { type: 'replay_error', message: `replay: ${String(error)}` } });
        }
      },
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    mismatches,
    get remaining() {
      return cassette.interactions.length - next;
    },
    isDone: () => next === cassette.interactions.length,
    assertDone() {
      if (next < cassette.interactions.length || mismatches.length > 0) {
        throw new ReplayIncompleteError(cassette.interactions.slice(next), mismatches);
      }
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
  const bytes = Buffer.concat(chunks);
  const text = bytes.toString('utf8');
  return {
    ...requestHead(req),
    body: text === '' ? undefined : parseJsonOrText(text),
    bodyBytes: bytes.byteLength,
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

function asFailure(result: string | MatchFailure | undefined): MatchFailure | undefined {
  return typeof result === 'string' ? { reason: result } : result;
}

function sendMismatch(res: ServerResponse, mismatch: ReplayMismatch, expected: Interaction | undefined): void {
  const { index, reason, hint, received: request } = mismatch;
  // SDKs retry 5xx answers; the stainless-generated ones (Anthropic, OpenAI) skip retries on this header,
  // so a mismatch fails once and fast instead of after several backoffs that all mismatch too.
  res.setHeader('x-should-retry', 'false');
  sendJson(res, REPLAY_MISMATCH_STATUS, {
    error: {
      type: 'replay_mismatch',
      message: `replay: request #${index + 1} (${request.method} ${request.path}) does not match the cassette: ${reason}${hint === undefined ? '' : ` (hint: ${hint})`}`,
      index,
      ...(hint === undefined ? {} : { hint }),
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
