import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpAuthorizer } from './mcp-oauth-options.js';

export interface LoopbackAuthorizerOptions {
  /** Default 0: any free port (registered dynamically, as RFC 8252 allows for loopback redirects). */
  readonly port?: number;
  /** Default `/callback`. */
  readonly path?: string;
  /** Shows the human the link. Default: prints it to stderr. */
  readonly onLink?: (authorizationUrl: URL) => void | Promise<void>;
  /** Also open the system browser (`xdg-open`, `open` or `start`) on the link. Default false. */
  readonly openBrowser?: boolean;
  /** How long to wait for the human, in ms (default 5 minutes); then the authorization fails. */
  readonly timeoutMs?: number;
}

export interface LoopbackAuthorizer extends McpAuthorizer {
  readonly redirectUrl: URL;
  /** Stops listening (a pending authorization fails). */
  close(): Promise<void>;
}

const PAGE = (message: string) =>
  `<!doctype html><meta charset="utf-8"><title>toolcircuit</title><p>${message}</p><p>You can close this tab.</p>`;

/**
 * The authorization code flow for a command-line tool (RFC 8252): listens on 127.0.0.1, shows the human
 * the authorization link, and resolves with the redirect's parameters when the browser comes back to
 * `http://127.0.0.1:PORT/callback`. Only one authorization waits at a time.
 */
export async function startLoopbackAuthorizer(options: LoopbackAuthorizerOptions = {}): Promise<LoopbackAuthorizer> {
  const path = options.path ?? '/callback';
  let waiting: ((params: URLSearchParams) => void) | undefined;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== path) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const deliver = waiting;
    waiting = undefined;
    const failed = url.searchParams.has('error');
    response
      .writeHead(deliver === undefined ? 409 : 200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        PAGE(
          deliver === undefined
            ? 'No authorization is waiting for this answer.'
            : failed
              ? 'The authorization was refused.'
              : 'Authorized: return to the terminal.',
        ),
      );
    deliver?.(url.searchParams);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const redirectUrl = new URL(`http://127.0.0.1:${port}${path}`);
  const onLink =
    options.onLink ??
    ((link: URL) => {
      process.stderr.write(`Open this link to authorize access to the MCP server:\n  ${link.href}\n`);
    });

  return {
    redirectUrl,
    async authorize(authorizationUrl) {
      if (waiting !== undefined) throw new Error('another authorization is already waiting on this loopback port');
      let timer: NodeJS.Timeout | undefined;
      const answer = new Promise<URLSearchParams>((resolve, reject) => {
        timer = setTimeout(() => {
          waiting = undefined;
          reject(new Error('no answer from the browser in time'));
        }, options.timeoutMs ?? 300_000);
        timer.unref();
        waiting = (params) => {
          clearTimeout(timer);
          resolve(params);
        };
      });
      try {
        await onLink(authorizationUrl);
        if (options.openBrowser === true) openInBrowser(authorizationUrl);
      } catch (error) {
        // The link never reached the human: stop waiting for an answer that cannot come.
        clearTimeout(timer);
        waiting = undefined;
        throw error;
      }
      return answer;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Best effort: a missing opener leaves the printed link. */
function openInBrowser(link: URL): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [link.href]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', link.href]]
        : ['xdg-open', [link.href]];
  try {
    const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // The link was printed.
  }
}
