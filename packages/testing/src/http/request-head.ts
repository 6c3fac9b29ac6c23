import type { IncomingMessage } from 'node:http';
import { flattenHeaders } from './flatten-headers.js';

/** What the local servers keep of a request besides its body: the request line, split, and the headers. */
export interface RequestHead {
  readonly method: string;
  /** The URL's path, without the query. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Lower-case names; a repeated header joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
}

export function requestHead(req: IncomingMessage): RequestHead {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: flattenHeaders(req.headers),
  };
}
