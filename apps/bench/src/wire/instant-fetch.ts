import { instantResponse, protocolOf } from './instant-responses.js';

/** The `fetch` signature the provider SDKs take (`ClientOptions['fetch']`), and the global one. */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface InstantFetch {
  readonly fetch: FetchFunction;
  /** Size in bytes of the last request body, as UTF-8: what a real fetch would put on the wire. */
  lastBodyBytes(): number;
  /** How many provider requests it answered: a run that never reached it (a fetch not in place) shows 0. */
  answered(): number;
}

/**
 * A `fetch` that answers every Anthropic, OpenAI (Chat, Responses) or Gemini request at once, in this process,
 * with `calls` tool calls (the instant server's responses, without the server): no socket, no other process.
 * What remains of a step is the adapter's work and the SDK's own (building, serialising, parsing the answer).
 */
export function createInstantFetch(toolName: string, calls: number): InstantFetch {
  let serial = 0;
  let lastBytes = 0;
  const fetch: FetchFunction = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const protocol = protocolOf(url.pathname);
    if (protocol === undefined) {
      return new Response('{"error":"unknown path"}', { status: 404, headers: { 'content-type': 'application/json' } });
    }
    lastBytes = encodedLength(init?.body);
    serial += 1;
    const body = JSON.stringify(instantResponse(protocol, toolName, calls, serial));
    return new Response(body, {
      status: 200,
      headers: { 'content-type': 'application/json', 'request-id': `req_${serial}` },
    });
  };
  return { fetch, lastBodyBytes: () => lastBytes, answered: () => serial };
}

const encoder = new TextEncoder();

/**
 * Encodes the body as every real fetch must before a byte goes out (undici: a TextEncoder over the string), so a
 * body made of cached pieces pays here what it would pay on a real request: flattening the joined text and
 * copying it into bytes. Skipping that would make such a body look free.
 */
function encodedLength(body: RequestInit['body']): number {
  if (body === undefined || body === null) return 0;
  if (typeof body === 'string') return encoder.encode(body).byteLength;
  if (body instanceof Uint8Array) return body.byteLength;
  throw new Error(`instant fetch: unexpected request body type ${Object.prototype.toString.call(body)}`);
}
