import type { IncomingMessage, ServerResponse } from 'node:http';
import { type NodeIncomingMessageLike, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import type { ServedCatalogue } from '../serve-catalogue.js';

/** The 2026-07-28 leg of the HTTP server: stateless, one server per request, beside the 2025 sessions. */
export interface ModernHttpHandler {
  /** Whether a POST without a session id is a 2026-07-28 request (it carries the per-request `_meta` claim). */
  claims(request: IncomingMessage, body: unknown): Promise<boolean>;
  /** Answers it; the request's `auth` (what `authenticate` returned) reaches `sessionFor` as `authInfo`. */
  handle(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void>;
  close(): Promise<void>;
}

export function modernHttpHandler(served: ServedCatalogue): ModernHttpHandler {
  // `legacy: 'reject'`: 2025-era traffic never gets here; it keeps its own sessions (one per client, bound
  // to the caller that opened it).
  const handler = createMcpHandler(() => served.createServer({ transport: 'http' }, 'modern'), { legacy: 'reject' });
  const node = toNodeHandler(handler);
  return {
    // The SDK's own classification, so this router and its handler never disagree.
    claims: async (request, body) => !(await isLegacyRequest(await toWebRequest(nodeRequest(request), body), body)),
    handle: (request, response, body) => node(nodeRequest(request), response, body),
    close: () => handler.close(),
  };
}

/** Node's `IncomingMessage` types `method` as optional; a request a server received always has one. */
function nodeRequest(request: IncomingMessage): NodeIncomingMessageLike {
  return request as NodeIncomingMessageLike;
}
