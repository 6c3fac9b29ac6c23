import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** A Web-standard handler, as `createRunServer` returns it. */
export interface FetchHandler {
  handle(request: Request): Promise<Response>;
}

/**
 * Serves a Web-standard handler from Node's `http.createServer(toNodeListener(server))`. The request URL is
 * built from the `Host` header (the origin check compares against it) and `http:` unless `protocol` says
 * the server sits behind TLS.
 */
export function toNodeListener(
  handler: FetchHandler,
  options: { readonly protocol?: 'http' | 'https' } = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const protocol = options.protocol ?? 'http';
  return (req, res) => {
    serve(handler, protocol, req, res).catch((error: unknown) => {
      // The handler answers every failure itself; this is the socket failing under us.
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error: { code: 'internal_error', message: 'the response could not be sent.' } }));
      } else {
        res.destroy(error instanceof Error ? error : undefined);
      }
    });
  };
}

async function serve(
  handler: FetchHandler,
  protocol: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const controller = new AbortController();
  // Aborted when the client goes away before the answer is sent.
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const method = req.method ?? 'GET';
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const request = new Request(`${protocol}://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
  const response = await handler.handle(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
  res.end();
}
