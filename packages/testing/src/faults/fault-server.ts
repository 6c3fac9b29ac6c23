import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * One raw HTTP answer, as a provider (or something between it and the client) might give it. Unlike a
 * cassette, it can be malformed: an HTML page with status 200, a body cut before its end, a stream that
 * stops between two events.
 */
export interface FaultAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /**
   * `true`: the body is written, then the socket is destroyed without ending the response (a connection
   * lost mid-body). A `content-length` header larger than the body makes the cut visible to a reader
   * that would otherwise take a chunked body's missing terminator for the end.
   */
  readonly cut?: boolean;
}

/** What the fault server saw: how many requests reached it (an SDK retry shows here). */
export interface FaultServer {
  readonly url: string;
  readonly requests: number;
}

/**
 * Runs `run` against a server on 127.0.0.1 that gives `answer` to every request, then closes it.
 * `answer: 'refused'` closes the server before `run`, so a connection to it is refused.
 */
export async function withFaultServer<T>(
  answer: FaultAnswer | 'refused',
  run: (server: FaultServer) => Promise<T>,
): Promise<T> {
  let requests = 0;
  const server = createServer((request, response) => {
    requests += 1;
    request.resume();
    request.on('end', () => {
      if (answer === 'refused') return;
      response.writeHead(answer.status, answer.headers);
      if (answer.cut === true) response.write(answer.body, () => response.socket?.destroy());
      else response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  if (answer === 'refused') await new Promise<void>((resolve) => server.close(() => resolve()));
  try {
    return await run({
      url,
      get requests() {
        return requests;
      },
    });
  } finally {
    if (answer !== 'refused') {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }
}
