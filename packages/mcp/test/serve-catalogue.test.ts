import { request } from 'node:http';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createSession, InMemoryJournal, type Session } from '@toolcircuit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpCatalogueServer, serveCatalogue, serveCatalogueHttp } from '../src/index.js';
import { authenticateBearer, casesCatalogue, people } from './cases-catalogue.js';

const closed: string[] = [];
const catalogue = casesCatalogue(closed);

describe('serveCatalogue over Streamable HTTP', () => {
  const journal = new InMemoryJournal();
  let http: HttpCatalogueServer;

  beforeAll(async () => {
    const served = serveCatalogue(catalogue, {
      journal,
      sessionFor: (identity): Session | undefined => {
        const person = identity.authInfo === undefined ? undefined : people[identity.authInfo.token];
        if (person === undefined || identity.authInfo === undefined) return undefined;
        return createSession({ id: `mcp-${identity.mcpSessionId}`, humanId: person.humanId, rights: person.rights });
      },
    });
    http = await serveCatalogueHttp(served, {
      authenticate: authenticateBearer,
    });
  });
  afterAll(async () => {
    await http?.close();
  });

  async function connect(
    token: string,
    elicitation?: (message: string) => ElicitResult,
    transport: { sessionId?: string; fetch?: typeof fetch } = {},
  ): Promise<Client> {
    const client = new Client(
      { name: 'test-client', version: '1.0.0' },
      { capabilities: elicitation === undefined ? {} : { elicitation: { form: {} } } },
    );
    if (elicitation !== undefined) {
      client.setRequestHandler('elicitation/create', async (request) => elicitation(request.params.message));
    }
    await client.connect(
      new StreamableHTTPClientTransport(http.url, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
        ...transport,
      }),
    );
    return client;
  }

  it('lists the tools with annotations derived from their definitions', async () => {
    const client = await connect('token-alice');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool.annotations?.destructiveHint])).toEqual([
      ['lookup_case', false],
      ['close_case', true],
    ]);
    expect(tools[0]?.inputSchema).toMatchObject({ required: ['number'], additionalProperties: false });
    await client.close();
  });

  it('runs every call through the four checks for the session of the authenticated caller', async () => {
    const alice = await connect('token-alice');
    const bob = await connect('token-bob');
    const ok = await alice.callTool({ name: 'lookup_case', arguments: { number: 'A-1234' } });
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent).toEqual({ number: 'A-1234', status: 'open' });
    const invalid = await alice.callTool({ name: 'lookup_case', arguments: { number: '1234' } });
    expect(invalid.isError).toBe(true);
    const unknown = await alice.callTool({ name: 'delete_everything', arguments: {} });
    expect(unknown.isError).toBe(true);
    // Bob's token maps to a session without the right, whatever the request says about itself.
    const denied = await bob.callTool({
      name: 'lookup_case',
      arguments: { number: 'A-1234' },
      _meta: { humanId: 'alice' },
    });
    expect(denied.isError).toBe(true);
    expect(JSON.stringify(denied.content)).toMatch(/right/);
    const last = journal.entries
      .slice(-4)
      .map((entry) => [entry.humanId, entry.toolName, entry.verdict, entry.reason ?? null]);
    expect(last).toEqual([
      ['alice', 'lookup_case', 'executed', null],
      ['alice', 'lookup_case', 'refused', 'invalid_input'],
      ['alice', 'delete_everything', 'refused', 'unknown_tool'],
      ['bob', 'lookup_case', 'refused', 'missing_right'],
    ]);
    await Promise.all([alice.close(), bob.close()]);
  });

  it('asks the human through elicitation before an irreversible call, and runs it once on yes', async () => {
    const asked: string[] = [];
    const client = await connect('token-alice', (message) => {
      asked.push(message);
      return { action: 'accept', content: { confirm: true } };
    });
    const result = await client.callTool({ name: 'close_case', arguments: { number: 'B-0001' } });
    expect(result.isError).toBeFalsy();
    expect(closed.filter((number) => number === 'B-0001')).toHaveLength(1);
    expect(asked[0]).toMatch(/close_case[\s\S]*"number": "B-0001"/);
    expect(journal.entries.at(-1)).toMatchObject({ toolName: 'close_case', verdict: 'executed', humanId: 'alice' });
    await client.close();
  });

  it('does not run an irreversible call the human declines', async () => {
    const client = await connect('token-alice', () => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'close_case', arguments: { number: 'B-0002' } });
    expect(result.isError).toBe(true);
    expect(closed).not.toContain('B-0002');
    expect(journal.entries.at(-1)).toMatchObject({ verdict: 'refused', reason: 'confirmation_required' });
    await client.close();
  });

  it('treats an elicitation the client fails to answer as no confirmation, and journals the refusal', async () => {
    const client = await connect('token-alice', () => {
      throw new Error('the dialog crashed');
    });
    const result = await client.callTool({ name: 'close_case', arguments: { number: 'B-0004' } });
    expect(result.isError).toBe(true);
    expect(closed).not.toContain('B-0004');
    expect(journal.entries.at(-1)).toMatchObject({
      toolName: 'close_case',
      verdict: 'refused',
      reason: 'confirmation_required',
    });
    await client.close();
  });

  it('refuses an irreversible call with instructions when the client cannot elicit', async () => {
    const client = await connect('token-alice');
    const result = await client.callTool({ name: 'close_case', arguments: { number: 'B-0003' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/does not support elicitation/);
    expect(closed).not.toContain('B-0003');
    await client.close();
  });

  it("refuses a session id used by another caller: Carol cannot send Alice's session id, nor reach Alice's human", async () => {
    const asked: string[] = [];
    const alice = await connect('token-alice', (message) => {
      asked.push(message);
      return { action: 'accept', content: { confirm: true } };
    });
    const aliceSession = (alice.transport as StreamableHTTPClientTransport).sessionId;
    expect(aliceSession).toMatch(/./);
    // Carol holds a valid token of her own, and the right; she reuses Alice's session id (no initialize).
    const carol = await connect('token-carol', undefined, {
      ...(aliceSession === undefined ? {} : { sessionId: aliceSession }),
    });
    await expect(carol.callTool({ name: 'close_case', arguments: { number: 'C-0001' } })).rejects.toThrow(
      /Unknown MCP session|404/,
    );
    expect(closed).not.toContain('C-0001');
    expect(asked).toEqual([]);
    // Alice's own session is untouched.
    expect((await alice.callTool({ name: 'lookup_case', arguments: { number: 'A-1234' } })).isError).toBeFalsy();
    await Promise.all([alice.close(), carol.close().catch(() => undefined)]);
  });

  it("asks the confirmation on the call's own stream: a client that opens no GET stream is asked, and the call runs once", async () => {
    const gets: string[] = [];
    // The client's transport, as a client that never opens the optional GET stream: it answers its own GET
    // with 405 (what a server without one says), so only the POSTs reach the server.
    const noGetStream: typeof fetch = async (input, init) => {
      if ((init?.method ?? 'GET') === 'GET') {
        gets.push(String(input));
        return new Response(null, { status: 405 });
      }
      return fetch(input, init);
    };
    const asked: string[] = [];
    const client = await connect(
      'token-alice',
      (message) => {
        asked.push(message);
        return { action: 'accept', content: { confirm: true } };
      },
      { fetch: noGetStream },
    );
    const result = await client.callTool({ name: 'close_case', arguments: { number: 'D-0001' } });
    expect(result.isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(closed.filter((number) => number === 'D-0001')).toHaveLength(1);
    expect(gets.length).toBeGreaterThan(0); // the client did try, and got no stream
    await client.close();
  });

  it('answers 401 without a valid token and 403 to a foreign Host (DNS rebinding)', async () => {
    await expect(connect('token-mallory')).rejects.toThrow();
    const post = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const outgoing = request(
          http.url,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: 'Bearer token-alice', ...headers },
          },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        outgoing.on('error', reject);
        outgoing.end('{}');
      });
    expect(await post({ host: 'evil.example.com' })).toBe(403);
    expect(await post({ origin: 'http://evil.example.com' })).toBe(403);
    // The same request from a loopback name gets past the check (and fails later, as it is no initialize).
    expect(await post({ host: `localhost:${http.url.port}` })).toBe(400);
  });
});

describe('serveCatalogue: the confirmation time-out', () => {
  it('is configurable: a human who does not answer in time is no confirmation, and the refusal says so', async () => {
    const journal = new InMemoryJournal();
    const served = serveCatalogue(catalogue, {
      journal,
      confirmationTimeoutMs: 300,
      sessionFor: () => createSession({ id: 'mcp-timeout', humanId: 'alice', rights: ['cases:close'] }),
    });
    const http = await serveCatalogueHttp(served);
    const client = new Client(
      { name: 'test-client', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    // The human never answers.
    client.setRequestHandler('elicitation/create', () => new Promise<ElicitResult>(() => undefined));
    try {
      await client.connect(new StreamableHTTPClientTransport(http.url));
      const result = await client.callTool({ name: 'close_case', arguments: { number: 'E-0001' } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/Nobody answered the confirmation within 0.3 s/);
      expect(closed).not.toContain('E-0001');
      expect(journal.entries.at(-1)).toMatchObject({
        toolName: 'close_case',
        verdict: 'refused',
        reason: 'confirmation_required',
      });
    } finally {
      await client.close();
      await http.close();
    }
  });
});
