import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Files the viewer may list and open: trace files (JSON lines) and journal exports (JSON or JSON lines). */
export const TRACE_FILE_EXTENSIONS: readonly string[] = ['.jsonl', '.ndjson', '.json'];

/**
 * The viewer's built page, copied next to the CLI's own files by its build (`scripts/copy-trace-viewer.mjs`
 * from apps/trace-viewer): the CLI ships it, it does not import it.
 */
export function traceViewerDirectory(): string {
  return fileURLToPath(new URL('../trace-viewer/', import.meta.url));
}

export interface ServeTraceViewerOptions {
  /** One file to serve (`trace open`), or every trace file directly in a folder (`trace serve`). */
  readonly file?: string;
  readonly folder?: string;
  /** Default 0: a free port. The server only ever listens on 127.0.0.1. */
  readonly port?: number;
}

export interface TraceViewerServer {
  /** The page's address, e.g. `http://127.0.0.1:41234/`. */
  readonly url: string;
  /** With `file`: the address that opens it in the viewer. */
  readonly fileUrl: string | undefined;
  close(): Promise<void>;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'application/jsonl; charset=utf-8',
  '.ndjson': 'application/x-ndjson; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Serves the viewer's page and the trace files on 127.0.0.1: `/` the page, `/files/` the list of files (JSON),
 * `/files/<name>` one file. Nothing outside the page's folder and the given file or folder is ever served.
 */
export async function serveTraceViewer(options: ServeTraceViewerOptions): Promise<TraceViewerServer> {
  const page = traceViewerDirectory();
  const single = options.file === undefined ? undefined : resolve(options.file);
  const folder = options.folder === undefined ? undefined : resolve(options.folder);
  const listFiles = async (): Promise<string[]> => {
    if (single !== undefined) return [basename(single)];
    if (folder === undefined) return [];
    const entries = await readdir(folder, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && TRACE_FILE_EXTENSIONS.includes(extname(entry.name)))
      .map((entry) => entry.name)
      .sort();
  };
  const fileFor = async (name: string): Promise<string | undefined> => {
    if (!(await listFiles()).includes(name)) return undefined;
    return single ?? (folder === undefined ? undefined : join(folder, name));
  };

  const server = createServer((request, response) => {
    handle(request, response, page, listFiles, fileFor).catch(() =>
      send(response, 500, 'text/plain', 'internal error'),
    );
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => ready());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/`;
  return {
    url,
    fileUrl: single === undefined ? undefined : `${url}?trace=${encodeURIComponent(`files/${basename(single)}`)}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  page: string,
  listFiles: () => Promise<string[]>,
  fileFor: (name: string) => Promise<string | undefined>,
): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, 'text/plain', 'GET only');
  const path = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
  if (path === '/files/' || path === '/files') {
    return send(response, 200, CONTENT_TYPES['.json'], JSON.stringify(await listFiles()));
  }
  if (path.startsWith('/files/')) {
    const file = await fileFor(path.slice('/files/'.length));
    if (file === undefined) return send(response, 404, 'text/plain', 'no such trace file');
    return send(response, 200, CONTENT_TYPES[extname(file)] ?? 'text/plain', await readFile(file));
  }
  const relative = path === '/' ? 'index.html' : path.slice(1);
  const target = resolve(page, relative);
  // Only the page's own files: no `..` out of its folder.
  if (!target.startsWith(page.endsWith(sep) ? page : `${page}${sep}`))
    return send(response, 404, 'text/plain', 'not found');
  const found = await stat(target).catch(() => undefined);
  if (found?.isFile() !== true) return send(response, 404, 'text/plain', 'not found');
  return send(response, 200, CONTENT_TYPES[extname(target)] ?? 'application/octet-stream', await readFile(target));
}

function send(response: ServerResponse, status: number, type: string | undefined, body: string | Buffer): void {
  response.writeHead(status, {
    'content-type': type ?? 'application/octet-stream',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(body);
}
