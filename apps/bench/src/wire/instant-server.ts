/**
 * Child process entry: an HTTP server on 127.0.0.1 that answers every Anthropic, OpenAI Chat, OpenAI
 * Responses or Gemini request at once with `calls` tool calls, reading (not parsing) the body. It runs in
 * its own process so its work lands on the other core, not on the adapter being measured.
 *
 * `node dist/wire/instant-server.js <toolName> <calls>`; prints `{"url": …}` once listening.
 * `GET /stats` returns the body size of every request since the last `/stats`, then forgets them.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { instantResponse, protocolOf } from './instant-responses.js';

const [toolName = 'look_up_orders', callsText = '1'] = process.argv.slice(2);
const calls = Number(callsText);
let serial = 0;
let sizes: number[] = [];

const server = createServer((request, response) => {
  let bytes = 0;
  request.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  request.on('end', () => {
    const path = request.url ?? '/';
    if (request.method === 'GET' && path === '/stats') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sizes }));
      sizes = [];
      return;
    }
    const protocol = protocolOf(path);
    if (protocol === undefined) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown path"}');
      return;
    }
    sizes.push(bytes);
    serial += 1;
    const body = JSON.stringify(instantResponse(protocol, toolName, calls, serial));
    response.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${serial}` }).end(body);
  });
});

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
