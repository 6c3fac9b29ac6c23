import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import type { FetchHandler } from '../node/to-node-listener.js';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * The page's own scripts and styles only: no inline script, no other origin, and no page may frame it (a
 * framed approval button could be clicked through a decoy).
 */
const PAGE_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface StaticPageOptions {
  /** The folder of a built page (its `index.html` and assets), e.g. the approval inbox's. */
  readonly directory: string;
}

/**
 * Serves a static page in front of a run server: `GET /` is the folder's `index.html`, `GET /<file>` one of
 * its files; every other request (the run routes, and any path that is not a file of the folder) goes to
 * `server`. Nothing outside the folder is ever served.
 */
export function withStaticPage(server: FetchHandler, options: StaticPageOptions): FetchHandler {
  const root = resolve(options.directory);
  const inside = root.endsWith(sep) ? root : `${root}${sep}`;
  return {
    handle: async (request) => {
      const method = request.method.toUpperCase();
      if (method !== 'GET' && method !== 'HEAD') return server.handle(request);
      let path: string;
      try {
        path = decodeURIComponent(new URL(request.url).pathname);
      } catch {
        return server.handle(request);
      }
      const target = resolve(root, path === '/' ? 'index.html' : `.${path}`);
      if (!target.startsWith(inside) || path.includes('\0')) return server.handle(request);
      const found = await stat(target).catch(() => undefined);
      if (found?.isFile() !== true) return server.handle(request);
      const body = method === 'HEAD' ? null : new Uint8Array(await readFile(target));
      return new Response(body, {
        status: 200,
        headers: {
          'content-type': CONTENT_TYPES[extname(target)] ?? 'application/octet-stream',
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
          'content-security-policy': PAGE_POLICY,
        },
      });
    },
  };
}
