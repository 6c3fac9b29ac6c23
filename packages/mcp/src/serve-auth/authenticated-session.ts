import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Session } from '@toolcircuit/core';

/** Where serveCatalogueHttp keeps the session `authenticateSession` returned, on the request's AuthInfo. */
export const SESSION_KEY = 'toolcircuit.session';

/** The session the HTTP layer authenticated for this request, if it used `authenticateSession`. */
export function sessionOfAuthInfo(authInfo: AuthInfo | undefined): Session | undefined {
  return authInfo?.extra?.[SESSION_KEY] as Session | undefined;
}

/** A Web `Request` with the method, URL and headers of a Node request (the body stays with the MCP layer). */
export function webRequestOf(request: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of [value].flat()) headers.append(name, one);
  }
  return new Request(new URL(request.url ?? '/', origin), { method: request.method ?? 'GET', headers });
}
