import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type RequestHead, requestHead } from '../http/request-head.js';

/** One request as it reached the server (`method`, `path`, `query`, `headers`), its body untouched. */
export interface RecordedWireRequest extends RequestHead {
  /** The body exactly as sent: compare these to catch a difference in key order, spacing or escaping. */
  readonly bytes: Buffer;
  /** `bytes` decoded as UTF-8 (lossy if the body is not UTF-8: compare `bytes` then). */
  readonly text: string;
}

/** An answer prepared as text in advance, so the server serialises nothing of its own. */
export interface ScriptedReply {
  /** 200 unless given. */
  readonly status?: number;
  readonly contentType: string;
  readonly text: string;
}

/**
 * The answer to the request at `index` (0 for the first). `undefined` means there is none: the server answers
 * 500. A script of replies in order is `(_request, index) => replies[index]`.
 */
export type ReplyScript = (request: RecordedWireRequest, index: number) => ScriptedReply | undefined;

export interface RecordingServer {
  /** `http://127.0.0.1:PORT`, a base URL for the SDK (OpenAI's SDK wants `/v1` after it). */
  readonly url: string;
  /** Every request in the order its body arrived, including those answered 500. */
  readonly requests: readonly RecordedWireRequest[];
  /** Stops listening and ends open connections; calling it again waits for the same close. */
  close(): Promise<void>;
}

/** The status answered when the script has no reply, or throws: a failure the SDK reports as an error. */
const NO_REPLY_STATUS = 500;

/**
 * A node:http server on 127.0.0.1 that keeps the exact bytes of every request body and answers each request
 * with `reply(request, index)`. For asserting what an adapter puts on the wire, byte for byte: the replay
 * server parses bodies, which would hide a difference in key order or escaping.
 */
export async function startRecordingServer(reply: ReplyScript): Promise<RecordingServer> {
  const requests: RecordedWireRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A client that hangs up mid-body must not crash the test process with an unhandled 'error' event.
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const request = recordedRequest(req, Buffer.concat(chunks));
      requests.push(request);
      answer(res, request, requests.length - 1, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        // Without this an SDK's keep-alive connection holds the server open until its idle timeout.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
      return closing;
    },
  };
}

function recordedRequest(req: IncomingMessage, bytes: Buffer): RecordedWireRequest {
  return {
    ...requestHead(req),
    bytes,
    text: bytes.toString('utf8'),
  };
}

function answer(res: ServerResponse, request: RecordedWireRequest, index: number, reply: ReplyScript): void {
  const which = `request #${index + 1} (${request.method} ${request.path})`;
  let scripted: ScriptedReply | undefined;
  try {
    scripted = reply(request, index);
  } catch (error) {
    sendNoReply(res, `the reply to ${which} threw: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  if (scripted === undefined) {
    sendNoReply(res, `no reply for ${which}`);
    return;
  }
  res.writeHead(scripted.status ?? 200, { 'content-type': scripted.contentType });
  res.end(scripted.text);
}

// A clear error answer rather than none, so the test sees the SDK fail with this message instead of hanging.
function sendNoReply(res: ServerResponse, reason: string): void {
  res.writeHead(NO_REPLY_STATUS, {
    'content-type': 'application/json',
    // The Anthropic and OpenAI SDKs retry a 5xx unless told not to; a retry would only be recorded and fail again.
    'x-should-retry': 'false',
  });
  res.end(JSON.stringify({ error: { type: 'recording_server_error', message: `recording server: ${reason}` } }));
}
