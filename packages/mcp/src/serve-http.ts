import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import type { Session } from '@toolcircuit/core';
import { modernHttpHandler } from './era/modern-http-handler.js';
import { SESSION_KEY, webRequestOf } from './serve-auth/authenticated-session.js';
import {
  bearerChallenge,
  type ProtectedResourceOptions,
  protectedResourceMetadata,
  protectedResourcePath,
} from './serve-auth/protected-resource.js';
import type { ServedCatalogue } from './serve-catalogue.js';
import { SessionEventStore } from './session-event-store.js';

export interface ServeHttpOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0 (any free port; read it from `url`). */
  readonly port?: number;
  /** Default `/mcp`. */
  readonly path?: string;
  /**
   * Authenticates each HTTP request (e.g. verifies a bearer token) and says who it is; `undefined` answers
   * 401. What it returns is the identity `sessionFor` maps to a session. Without it every request is
   * anonymous and only a loopback server is sensible.
   */
  readonly authenticate?: (request: IncomingMessage) => AuthInfo | undefined | Promise<AuthInfo | undefined>;
  /**
   * The application's `authenticate(request) → Session | undefined`, the same function `@toolcircuit/server`
   * takes (e.g. {@link bearerAuthenticate}): the session it returns is the one the calls run under
   * (`sessionFor` receives it as `identity.session`), and each MCP session is bound to its `humanId`.
   * The request it sees has the method, URL and headers, not the body. Use it or `authenticate`.
   */
  readonly authenticateSession?: (request: Request) => Session | undefined | Promise<Session | undefined>;
  /**
   * Publishes RFC 9728 protected resource metadata at `/.well-known/oauth-protected-resource<path>` and
   * answers 401 with `WWW-Authenticate: Bearer resource_metadata=…`, so OAuth clients find the
   * authorization server on their own.
   */
  readonly protectedResource?: ProtectedResourceOptions;
  /**
   * Host names accepted in `Host` and `Origin` (DNS-rebinding protection). Default: the loopback names
   * `localhost`, `127.0.0.1` and `[::1]`.
   */
  readonly allowedHostnames?: readonly string[];
  /**
   * Who an MCP session belongs to, from what `authenticate` returned: a request that carries a session id
   * must authenticate to the same owner, or it is answered 404 as if the session did not exist (a session
   * id is not a credential: it shows up in logs and proxies). Default: the bearer token and its client id,
   * so a refreshed token needs a new session; return a stable user id to keep sessions across refreshes.
   * With `authenticateSession` the default is the session's `humanId`.
   */
  readonly sessionOwner?: (authInfo: AuthInfo) => string;
  /**
   * Resumable streams (SSE polling): each session keeps its last `maxEvents` events (default 500) so a client
   * that reconnects with `Last-Event-ID` misses nothing, and tells clients to wait `retryMs` (default 1000)
   * before reconnecting. A served tool may then close its call's stream and let the client poll
   * (`ServedCall.closeStream`). Protocol 2025-11-25 and later only: older clients get plain streams.
   * `false`: no event is kept.
   */
  readonly resumable?: { readonly maxEvents?: number; readonly retryMs?: number } | false;
}

export interface HttpCatalogueServer {
  readonly url: URL;
  close(): Promise<void>;
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
const DEFAULT_MAX_EVENTS = 500;
const DEFAULT_RETRY_MS = 1000;

/**
 * Serves a catalogue over Streamable HTTP: one MCP session per client (`Mcp-Session-Id`), bound to the
 * caller that opened it; the `Host` and `Origin` headers checked against loopback names so a web page cannot
 * reach the server through DNS rebinding; and each request authenticated by the application before the MCP
 * layer sees it.
 */
export async function serveCatalogueHttp(
  served: ServedCatalogue,
  options: ServeHttpOptions = {},
): Promise<HttpCatalogueServer> {
  const path = options.path ?? '/mcp';
  if (options.authenticate !== undefined && options.authenticateSession !== undefined) {
    throw new TypeError('serveCatalogueHttp: give `authenticate` or `authenticateSession`, not both.');
  }
  const metadataPath = protectedResourcePath(path);
  let origin = '';
  const allowed = new Set((options.allowedHostnames ?? LOOPBACK).map((name) => name.toLowerCase()));
  const transports = new Map<string, NodeStreamableHTTPServerTransport>();
  const resumable = options.resumable ?? {};
  const modern = modernHttpHandler(served);
  /** The owner digest of each session (`undefined` when the server authenticates nobody). */
  const owners = new Map<string, Buffer | undefined>();
  const ownerOf = (authInfo: AuthInfo | undefined): Buffer | undefined =>
    authInfo === undefined
      ? undefined
      : createHash('sha256')
          .update((options.sessionOwner ?? defaultOwner)(authInfo), 'utf8')
          .digest();
  const authenticate = async (request: IncomingMessage): Promise<AuthInfo | undefined> => {
    if (options.authenticate !== undefined) return options.authenticate(request);
    if (options.authenticateSession === undefined) return undefined;
    const session = await options.authenticateSession(webRequestOf(request, origin));
    if (session === undefined) return undefined;
    const bearer = /^Bearer\s+(\S+)/i.exec(header(request, 'authorization') ?? '')?.[1];
    return { token: bearer ?? '', clientId: session.humanId, scopes: [], extra: { [SESSION_KEY]: session } };
  };
  const requiresAuth = options.authenticate !== undefined || options.authenticateSession !== undefined;
  const unauthorized = (request: IncomingMessage, response: ServerResponse): void => {
    const challenge =
      options.protectedResource === undefined
        ? 'Bearer'
        : bearerChallenge(`${origin}${metadataPath}`, header(request, 'authorization') !== undefined);
    reply(response, 401, 'Unauthorized', { 'www-authenticate': challenge });
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://placeholder');
    if (options.protectedResource !== undefined && url.pathname === metadataPath && request.method === 'GET') {
      const resource = String(options.protectedResource.resource ?? `${origin}${path}`);
      response.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      response.end(JSON.stringify(protectedResourceMetadata(options.protectedResource, resource)));
      return;
    }
    if (url.pathname !== path) return reply(response, 404, 'Not found');
    if (!hostAllowed(request, allowed)) return reply(response, 403, 'Forbidden: Host or Origin is not allowed');
    const authInfo = await authenticate(request);
    if (requiresAuth && authInfo === undefined) return unauthorized(request, response);
    if (authInfo !== undefined) (request as IncomingMessage & { auth?: AuthInfo }).auth = authInfo;

    const sessionId = header(request, 'mcp-session-id');
    if (sessionId !== undefined) {
      const transport = transports.get(sessionId);
      // Another caller's session is answered exactly like an unknown one: it must not learn that it exists.
      if (transport === undefined || !sameOwner(owners.get(sessionId), ownerOf(authInfo))) {
        return reply(response, 404, 'Unknown MCP session');
      }
      return transport.handleRequest(request, response);
    }
    if (request.method !== 'POST') return reply(response, 400, 'Missing Mcp-Session-Id');
    const body = await readJson(request);
    // A 2026-07-28 request carries its revision in `_meta` and needs no session: served statelessly.
    if (body !== undefined && (await modern.claims(request, body))) return modern.handle(request, response, body);
    if (body === undefined || !isInitializeRequest(body)) return reply(response, 400, 'Expected an initialize request');
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      ...(resumable === false
        ? {}
        : {
            eventStore: new SessionEventStore(resumable.maxEvents ?? DEFAULT_MAX_EVENTS),
            retryInterval: resumable.retryMs ?? DEFAULT_RETRY_MS,
          }),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
        owners.set(id, ownerOf(authInfo));
      },
      onsessionclosed: (id) => {
        transports.delete(id);
        owners.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId === undefined) return;
      transports.delete(transport.sessionId);
      owners.delete(transport.sessionId);
    };
    await served.createServer({ transport: 'http' }).connect(transport);
    await transport.handleRequest(request, response, body);
  };

  const server: HttpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) reply(response, 500, error instanceof Error ? error.message : 'Internal error');
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${host}:${address.port}`;
  return {
    url: new URL(`http://${host}:${address.port}${path}`),
    async close() {
      await Promise.all([...transports.values()].map((transport) => transport.close().catch(() => undefined)));
      await modern.close().catch(() => undefined);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The human of an `authenticateSession` session; else the token and the client it was issued to: nobody
 * else's request carries both.
 */
function defaultOwner(authInfo: AuthInfo): string {
  const session = authInfo.extra?.[SESSION_KEY] as Session | undefined;
  if (session !== undefined) return JSON.stringify(['human', session.humanId]);
  return JSON.stringify([authInfo.clientId, authInfo.token]);
}

function sameOwner(session: Buffer | undefined, caller: Buffer | undefined): boolean {
  if (session === undefined || caller === undefined) return session === caller;
  return timingSafeEqual(session, caller);
}

function hostAllowed(request: IncomingMessage, allowed: ReadonlySet<string>): boolean {
  const host = header(request, 'host');
  if (host === undefined || !allowed.has(hostnameOf(`http://${host}`))) return false;
  const origin = header(request, 'origin');
  return origin === undefined || allowed.has(hostnameOf(origin));
}

function hostnameOf(value: string): string {
  try {
    return new URL(value).hostname.toLowerCase();
  } catch {
    return '';
  }
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 4 * 1024 * 1024) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

function reply(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
