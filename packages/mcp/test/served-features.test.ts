import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  type Catalogue,
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  executeCall,
  type Session,
} from '@toolcircuit/core';
import { parseSse } from '@toolcircuit/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type HttpCatalogueServer,
  type ServedCatalogue,
  type ServedPrompt,
  type ServedResource,
  type ServedResourceTemplate,
  serveCatalogue,
  serveCatalogueHttp,
  servedCallOf,
} from '../src/index.js';

// What a served catalogue offers beyond tools/call, through the v2 SDK's client over real Streamable HTTP:
// the served tool's channel to its caller, resources, prompts, completion, pagination, list changes, and
// resumable streams. Bearer tokens stand for the application's own authentication.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const NO_INPUT = { type: 'object', properties: {} } as const;

const tools = [
  defineTool({
    name: 'import_rows',
    description: 'Imports rows, saying how far it is.',
    inputSchema: NO_INPUT,
    right: everySession,
    run: async (_input, context) => {
      const client = servedCallOf(context);
      for (const done of [0, 50, 100]) await client?.progress(done, 100, `${done} of 100 rows`);
      await client?.log('info', { imported: 100 }, 'import');
      await client?.log('error', 'two rows skipped', 'import');
      return client === undefined ? 'Imported 100 rows (no MCP client).' : 'Imported 100 rows.';
    },
  }),
  defineTool({
    name: 'summarise',
    description: "Summarises with the client's model, after asking its human which tone.",
    inputSchema: NO_INPUT,
    right: everySession,
    run: async (_input, context) => {
      const client = servedCallOf(context);
      if (client === undefined) throw new Error('needs an MCP client');
      const tone = await client.elicit({
        message: 'Which tone?',
        requestedSchema: { type: 'object', properties: { tone: { type: 'string' } }, required: ['tone'] },
      });
      const answer = await client.sample({
        messages: [{ role: 'user', content: { type: 'text', text: `Summarise, ${String(tone.content?.['tone'])}.` } }],
        maxTokens: 50,
      });
      return answer.content;
    },
  }),
  defineTool({
    name: 'wait_and_poll',
    description: 'Lets the client poll for its result.',
    inputSchema: NO_INPUT,
    right: everySession,
    run: async (_input, context) => {
      const closed = servedCallOf(context)?.closeStream();
      await sleep(150);
      return `Done (stream closed: ${String(closed)}).`;
    },
  }),
  defineTool({
    name: 'case_status',
    description: 'The status of a case, as structured data.',
    inputSchema: NO_INPUT,
    right: everySession,
    run: () => ({ status: 'open', owner: 'alice' }),
  }),
  defineTool({
    name: 'case_note',
    description: 'Declares structured output but returns text.',
    inputSchema: NO_INPUT,
    right: everySession,
    run: () => 'Just text.',
  }),
];

const resources: ServedResource[] = [
  {
    uri: 'cases://policy',
    name: 'policy',
    description: 'The case policy.',
    mimeType: 'text/plain',
    right: everySession,
    read: () => [{ uri: 'cases://policy', mimeType: 'text/plain', text: 'Close nothing on Fridays.' }],
  },
  {
    uri: 'cases://audit',
    name: 'audit',
    description: 'The audit log.',
    mimeType: 'text/plain',
    right: 'audit:read',
    read: () => [{ uri: 'cases://audit', mimeType: 'text/plain', text: 'alice closed A-0001' }],
  },
];
const templates: ServedResourceTemplate[] = [
  {
    uriTemplate: 'cases://case/{number}',
    name: 'case',
    description: 'A case by number.',
    mimeType: 'application/json',
    right: 'cases:read',
    read: (uri, { number }) => [{ uri, mimeType: 'application/json', text: JSON.stringify({ number }) }],
    complete: { number: (value) => ['A-0001', 'A-0002', 'B-0001'].filter((number) => number.startsWith(value)) },
  },
];
const prompts: ServedPrompt[] = [
  {
    name: 'review_case',
    description: 'Review a case.',
    arguments: [
      { name: 'number', required: true },
      { name: 'focus', required: false },
    ],
    right: 'cases:read',
    get: ({ number, focus }) => [
      { role: 'user', content: { type: 'text', text: `Review case ${number}${focus ? `, on ${focus}` : ''}.` } },
    ],
    complete: { focus: (value) => ['deadlines', 'costs', 'people'].filter((focus) => focus.startsWith(value)) },
  },
];

const people: Record<string, Session> = {
  'token-alice': createSession({ id: 'alice', humanId: 'alice', rights: ['cases:read', 'audit:read'] }),
  'token-bob': createSession({ id: 'bob', humanId: 'bob', rights: [] }),
};

describe('serveCatalogue beyond tools/call', () => {
  let served: ServedCatalogue;
  let http: HttpCatalogueServer;
  const clients: Client[] = [];

  beforeAll(async () => {
    served = serveCatalogue(createCatalogue(tools), {
      sessionFor: (identity) => (identity.authInfo === undefined ? undefined : people[identity.authInfo.token]),
      resources,
      resourceTemplates: templates,
      prompts,
      pageSize: 3,
      toolExtras: {
        case_note: { outputSchema: { type: 'object', properties: {} } },
        case_status: {
          title: 'Case status',
          icons: [{ src: 'https://example.test/case.png', mimeType: 'image/png' }],
          outputSchema: {
            type: 'object',
            properties: { status: { type: 'string' }, owner: { type: 'string' } },
            required: ['status'],
          },
        },
      },
    });
    http = await serveCatalogueHttp(served, {
      authenticate: (request) => {
        const token = request.headers.authorization?.replace(/^Bearer /, '');
        return token !== undefined && token in people ? { token, clientId: token, scopes: [] } : undefined;
      },
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await http?.close();
  });

  async function connect(token: string, capabilities: ConstructorParameters<typeof Client>[1] = {}): Promise<Client> {
    const client = new Client({ name: 'test-client', version: '1.0.0' }, capabilities);
    await client.connect(
      new StreamableHTTPClientTransport(http.url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    clients.push(client);
    return client;
  }

  it("gives a served tool its caller's progress and log channel, filtered by the client's log level", async () => {
    const client = await connect('token-alice');
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      logs.push([notification.params.level, notification.params.data]);
    });
    const progress: unknown[] = [];
    await client.setLoggingLevel('error');
    const result = await client.callTool(
      { name: 'import_rows', arguments: {} },
      { onprogress: (p) => progress.push(p) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'Imported 100 rows.' }]);
    expect(progress).toEqual([
      { progress: 0, total: 100, message: '0 of 100 rows' },
      { progress: 50, total: 100, message: '50 of 100 rows' },
      { progress: 100, total: 100, message: '100 of 100 rows' },
    ]);
    await sleep(50);
    expect(logs).toEqual([['error', 'two rows skipped']]);
  });

  it('runs the same tool without an MCP client (a model call in the loop): no channel, no failure', async () => {
    const outcome = await executeCall(
      { type: 'tool_call', id: 'c1', name: 'import_rows', input: {} },
      { catalogue: createCatalogue(tools), session: people['token-alice'] as Session },
    );
    expect(outcome.result).toMatchObject({ isError: false, content: 'Imported 100 rows (no MCP client).' });
  });

  it("asks the client's human and model for a served tool, and refuses when the client cannot be asked", async () => {
    const able = await connect('token-alice', { capabilities: { sampling: {}, elicitation: { form: {} } } });
    const asked: string[] = [];
    able.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { tone: 'briefly' } };
    });
    able.setRequestHandler('sampling/createMessage', async (request) => {
      const [message] = request.params.messages;
      const content = Array.isArray(message?.content) ? message.content[0] : message?.content;
      asked.push(content?.type === 'text' ? content.text : '?');
      return { role: 'assistant', content: { type: 'text', text: 'All fine.' }, model: 'test', stopReason: 'endTurn' };
    });
    const result = await able.callTool({ name: 'summarise', arguments: {} });
    expect(asked).toEqual(['Which tone?', 'Summarise, briefly.']);
    expect(result).toMatchObject({ content: [{ type: 'text', text: '{"type":"text","text":"All fine."}' }] });

    const unable = await connect('token-alice');
    const refused = await unable.callTool({ name: 'summarise', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('does not support form elicitation');
  });

  it('lists and reads resources by the right of the caller, and answers one it may not read as not found', async () => {
    const alice = await connect('token-alice');
    const bob = await connect('token-bob');
    expect((await alice.listResources()).resources.map((resource) => resource.uri)).toEqual([
      'cases://policy',
      'cases://audit',
    ]);
    expect((await bob.listResources()).resources.map((resource) => resource.uri)).toEqual(['cases://policy']);
    expect((await bob.listResourceTemplates()).resourceTemplates).toEqual([]);
    expect((await alice.readResource({ uri: 'cases://case/A-0002' })).contents).toEqual([
      { uri: 'cases://case/A-0002', mimeType: 'application/json', text: '{"number":"A-0002"}' },
    ]);
    await expect(bob.readResource({ uri: 'cases://audit' })).rejects.toThrow(/not found/i);
    await expect(bob.readResource({ uri: 'cases://case/A-0002' })).rejects.toThrow(/not found/i);
    await expect(alice.readResource({ uri: 'cases://nothing' })).rejects.toThrow(/not found/i);
  });

  it('tells subscribers a resource changed, only those that may read it and until they unsubscribe', async () => {
    const alice = await connect('token-alice');
    const bob = await connect('token-bob');
    const updates: string[] = [];
    alice.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push(`alice ${n.params.uri}`);
    });
    bob.setNotificationHandler('notifications/resources/updated', (n) => {
      updates.push(`bob ${n.params.uri}`);
    });
    await alice.subscribeResource({ uri: 'cases://audit' });
    await bob.subscribeResource({ uri: 'cases://audit' });
    await served.resourceUpdated('cases://audit');
    await sleep(50);
    expect(updates).toEqual(['alice cases://audit']);
    await alice.unsubscribeResource({ uri: 'cases://audit' });
    await served.resourceUpdated('cases://audit');
    await sleep(50);
    expect(updates).toEqual(['alice cases://audit']);
  });

  it('gets prompts by right, refuses missing required arguments, and completes arguments', async () => {
    const alice = await connect('token-alice');
    const bob = await connect('token-bob');
    expect((await bob.listPrompts()).prompts).toEqual([]);
    await expect(bob.getPrompt({ name: 'review_case', arguments: { number: 'A-0001' } })).rejects.toThrow(
      /Unknown prompt/,
    );
    await expect(alice.getPrompt({ name: 'review_case', arguments: {} })).rejects.toThrow(
      /needs the argument\(s\) number/,
    );
    expect(
      (await alice.getPrompt({ name: 'review_case', arguments: { number: 'A-0001', focus: 'costs' } })).messages,
    ).toEqual([{ role: 'user', content: { type: 'text', text: 'Review case A-0001, on costs.' } }]);
    const focus = await alice.complete({
      ref: { type: 'ref/prompt', name: 'review_case' },
      argument: { name: 'focus', value: 'c' },
    });
    expect(focus.completion).toEqual({ values: ['costs'], total: 1, hasMore: false });
    const number = await alice.complete({
      ref: { type: 'ref/resource', uri: 'cases://case/{number}' },
      argument: { name: 'number', value: 'A-' },
    });
    expect(number.completion.values).toEqual(['A-0001', 'A-0002']);
    const hidden = await bob.complete({
      ref: { type: 'ref/prompt', name: 'review_case' },
      argument: { name: 'focus', value: '' },
    });
    expect(hidden.completion.values).toEqual([]);
  });

  it('pages tools/list, refuses a cursor it did not give, and passes titles, icons and output schemas through', async () => {
    const client = await connect('token-alice');
    const first = await client.request({ method: 'tools/list', params: {} });
    expect(first.tools.map((tool) => tool.name)).toEqual(['import_rows', 'summarise', 'wait_and_poll']);
    expect(first.nextCursor).toBeTypeOf('string');
    const second = await client.request({ method: 'tools/list', params: { cursor: first.nextCursor } });
    expect(second.tools.map((tool) => tool.name)).toEqual(['case_status', 'case_note']);
    expect(second.nextCursor).toBeUndefined();
    expect(second.tools[0]).toMatchObject({
      title: 'Case status',
      icons: [{ src: 'https://example.test/case.png', mimeType: 'image/png' }],
      outputSchema: { required: ['status'] },
    });
    await expect(client.request({ method: 'tools/list', params: { cursor: 'bm90LWEtY3Vyc29y' } })).rejects.toThrow(
      /Invalid cursor/,
    );
    const status = await client.callTool({ name: 'case_status', arguments: {} });
    expect(status.structuredContent).toEqual({ status: 'open', owner: 'alice' });
    // A tool that declares an output schema and returns no JSON object: an error result the model can read.
    const note = await client.callTool({ name: 'case_note', arguments: {} });
    expect(note.isError).toBe(true);
    expect(JSON.stringify(note.content)).toContain('declares an output schema but returned no JSON object');
  });

  it('tells connected clients when the served catalogue changes, and serves the new one', async () => {
    const client = await connect('token-alice');
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed++;
    });
    const next: Catalogue = createCatalogue([
      ...tools,
      defineTool({
        name: 'reopen_case',
        description: 'Reopens a case.',
        inputSchema: NO_INPUT,
        right: everySession,
        run: () => 'Reopened.',
      }),
    ]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('reopen_case');
    await served.replaceCatalogue(next);
    await vi.waitFor(() => expect(changed).toBe(1));
    const result = await client.callTool({ name: 'reopen_case', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'Reopened.' }]);
    await served.replaceCatalogue(createCatalogue(tools));
  });

  it('resumes a call whose stream the tool closed: a 2025-11-25 client polls with Last-Event-ID and gets the result', async () => {
    const headers = {
      authorization: 'Bearer token-alice',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const initialize = await fetch(http.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'poller', version: '1.0.0' } },
      }),
    });
    const sessionId = initialize.headers.get('mcp-session-id') ?? '';
    await initialize.text();
    const session = { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    await fetch(http.url, {
      method: 'POST',
      headers: session,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    const call = await fetch(http.url, {
      method: 'POST',
      headers: session,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'wait_and_poll', arguments: {} },
      }),
    });
    const body = await call.text(); // ends when the tool closes the stream, before its result
    const [priming, ...rest] = parseSse(body);
    expect(priming).toMatchObject({ data: '' });
    expect(body).toMatch(/^id: \S+\nretry: 1000\n/);
    expect(rest).toEqual([]);

    await sleep(300);
    const resumed = await fetch(http.url, {
      headers: { ...session, accept: 'text/event-stream', 'last-event-id': priming?.id ?? '' },
    });
    const replayed = parseSse(await resumed.text()).map((event) => JSON.parse(event.data));
    expect(replayed).toEqual([
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'Done (stream closed: true).' }] } },
    ]);

    // Another caller presenting that event id gets nothing of it.
    const stranger = await fetch(http.url, {
      headers: {
        ...session,
        authorization: 'Bearer token-bob',
        accept: 'text/event-stream',
        'last-event-id': priming?.id ?? '',
      },
    });
    expect(stranger.status).toBe(404);
    await stranger.text();
  });
});
