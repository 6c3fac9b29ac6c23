import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { createCatalogue, createSession, defineTool, executeCall, InMemoryJournal } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { connectMcpServer, serveCatalogue, serveCatalogueHttp } from '../src/index.js';

// SYNTHETIC catalogue served by the tests themselves, to reach the importer over HTTP.
const catalogue = createCatalogue([
  defineTool({
    name: 'greet',
    description: 'Greets someone by name.',
    inputSchema: {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
      additionalProperties: false,
    },
    right: 'greetings',
    run: ({ name }) => `Hello, ${name}.`,
  }),
]);
const session = createSession({ id: 'client', humanId: 'alice', rights: ['mcp:remote'] });

describe('the importer over HTTP', () => {
  it('imports a served catalogue over Streamable HTTP, with a bearer token, both sides checking', async () => {
    const serverJournal = new InMemoryJournal();
    const served = serveCatalogue(catalogue, {
      journal: serverJournal,
      sessionFor: ({ authInfo }) =>
        authInfo?.token === 'secret-token'
          ? createSession({ id: 'served', humanId: 'bob', rights: ['greetings'] })
          : undefined,
    });
    const http = await serveCatalogueHttp(served, {
      authenticate: (request) => {
        const token = request.headers.authorization?.replace(/^Bearer /, '');
        return token === undefined ? undefined : { token, clientId: 'test', scopes: [] };
      },
    });
    const connection = await connectMcpServer({
      name: 'remote',
      server: { url: http.url, headers: { authorization: 'Bearer secret-token' }, transport: 'streamable-http' },
    });
    try {
      // greet is not irreversible on the server, so it is served with destructiveHint: false and imported as reversible.
      expect(connection.tools().map((tool) => [tool.name, tool.irreversible])).toEqual([['greet', false]]);
      const outcome = await executeCall(
        { type: 'tool_call', id: '1', name: 'greet', input: { name: 'Camille' } },
        { catalogue: connection.catalogue(), session },
      );
      expect(outcome.result).toMatchObject({ isError: false, content: 'Hello, Camille.' });
      expect(serverJournal.entries).toMatchObject([{ humanId: 'bob', toolName: 'greet', verdict: 'executed' }]);
    } finally {
      await connection.close();
      await http.close();
    }
  });

  it('falls back to the older HTTP+SSE transport when the server refuses Streamable HTTP', async () => {
    const transports = new Map<string, SSEServerTransport>();
    const served = serveCatalogue(catalogue, {
      sessionFor: () => createSession({ id: 'served', humanId: 'bob', rights: ['greetings'] }),
    });
    // A server that only speaks HTTP+SSE: GET /sse opens the stream, POST /messages carries requests.
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (request.method === 'GET' && url.pathname === '/sse') {
        const transport = new SSEServerTransport('/messages', response);
        transports.set(transport.sessionId, transport);
        void served.createServer({ transport: 'http' }).connect(transport);
        return;
      }
      const transport = transports.get(url.searchParams.get('sessionId') ?? '');
      if (request.method === 'POST' && url.pathname === '/messages' && transport !== undefined) {
        void transport.handlePostMessage(request, response);
        return;
      }
      response.writeHead(405).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const connection = await connectMcpServer({ name: 'remote', server: { url: `http://127.0.0.1:${port}/sse` } });
    try {
      const outcome = await executeCall(
        { type: 'tool_call', id: '1', name: 'greet', input: { name: 'Dominique' } },
        { catalogue: connection.catalogue(), session },
      );
      expect(outcome.result).toMatchObject({ isError: false, content: 'Hello, Dominique.' });
    } finally {
      await connection.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
