import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Runs `body` against a server that answers every request with a 200 event stream whose body is `text`,
 * then destroys the socket without ending the chunked body: the connection lost mid-stream, which the
 * replay server (it always ends its responses) cannot play. The request body is read first, so closing
 * sends a plain FIN and the client receives all of `text` before the failure. `url` is the server's origin
 * (`http://127.0.0.1:<port>`), as `ReplayServer.url`: add the API's path prefix if its SDK needs one.
 */
export async function withDroppingServer<T>(text: string, body: (url: string) => Promise<T>): Promise<T> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(text, () => response.socket?.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await body(`http://127.0.0.1:${port}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
