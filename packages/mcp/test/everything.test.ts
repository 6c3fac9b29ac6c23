import { createSession, executeCall, InMemoryJournal, type ToolResultContent } from '@toolcircuit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectMcpServerOptions, connectMcpServer, type McpConnection, type McpEvent } from '../src/index.js';
import { everythingServer } from './reference-servers.js';

// The real @modelcontextprotocol/server-everything (every protocol feature), over stdio.
const session = createSession({ id: 'sess-everything', humanId: 'alice', rights: ['mcp:everything'] });

describe('importing server-everything', () => {
  let connection: McpConnection | undefined;
  afterEach(async () => {
    await connection?.close();
    connection = undefined;
  });

  async function connect(options: Partial<ConnectMcpServerOptions> = {}): Promise<McpConnection> {
    connection = await connectMcpServer({ name: 'everything', server: everythingServer(), ...options });
    return connection;
  }

  async function call(name: string, input: unknown, extra: { signal?: AbortSignal; timeoutMs?: number } = {}) {
    if (connection === undefined) throw new Error('not connected');
    const journal = new InMemoryJournal();
    const outcome = await executeCall(
      { type: 'tool_call', id: `call-${name}`, name, input },
      { catalogue: connection.catalogue(), session, journal, ...extra },
    );
    return { ...outcome, entries: journal.entries };
  }

  it('maps text, structured content, images (as image parts) and resources to the neutral result without dropping any', async () => {
    await connect();
    const echo = await call('echo', { message: 'hello' });
    expect(echo.result.content).toBe('Echo: hello');

    const weather = await call('get-structured-content', { location: 'Chicago' });
    expect(weather.result.content).toEqual([
      { type: 'json', value: { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 } },
    ]);

    const image = await call('get-tiny-image', {});
    const parts = image.result.content as Exclude<ToolResultContent, string>;
    // A PNG is carried as an image part with the server's own base64 text (no re-encoding).
    const picture = parts.find((part) => part.type === 'image');
    expect(picture).toEqual({
      type: 'image',
      mediaType: 'image/png',
      data: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
    });
    expect(parts.filter((part) => part.type === 'text').length).toBeGreaterThan(0);

    const reference = await call('get-resource-reference', { resourceType: 'Text', resourceId: 1 });
    expect(JSON.stringify(reference.result.content)).toMatch(
      /"type":"resource","uri":"demo:\/\/resource\/dynamic\/text\/1"/,
    );

    const links = await call('get-resource-links', { count: 2 });
    const linkParts = (links.result.content as Exclude<ToolResultContent, string>).filter(
      (part) => part.type === 'json' && (part.value as { type?: string }).type === 'resource_link',
    );
    expect(linkParts).toHaveLength(2);
  });

  it('surfaces progress notifications as events', async () => {
    const events: McpEvent[] = [];
    await connect({ onEvent: (event) => events.push(event) });
    const outcome = await call('trigger-long-running-operation', { duration: 0.3, steps: 3 });
    expect(outcome.verdict.kind).toBe('executed');
    const progress = events.flatMap((event) => (event.type === 'progress' ? [event] : []));
    // The SDK drops a progress notification that arrives after the result was handled (it may overtake the
    // last one), so at least the first steps, in order, with the call's id.
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.map((event) => event.progress)).toEqual([1, 2, 3].slice(0, progress.length));
    for (const event of progress) {
      expect(event).toMatchObject({
        total: 3,
        toolName: 'trigger-long-running-operation',
        callId: 'call-trigger-long-running-operation',
      });
    }
  });

  it("sends the run's abort and the call's timeout to the server as cancellation, and answers at once", async () => {
    await connect();
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 200);
    const aborted = await call(
      'trigger-long-running-operation',
      { duration: 20, steps: 20 },
      { signal: controller.signal },
    );
    expect(aborted.verdict.kind).toBe('aborted');
    const timedOut = await call('trigger-long-running-operation', { duration: 20, steps: 20 }, { timeoutMs: 200 });
    expect(timedOut.verdict).toEqual({ kind: 'timed_out', timeoutMs: 200 });
    expect(performance.now() - started).toBeLessThan(15_000); // far below the 40 s the operations would take
    // The connection is still usable afterwards.
    expect((await call('echo', { message: 'still here' })).result.content).toBe('Echo: still here');
  });

  it('routes elicitation to the application handler and never answers it by itself', async () => {
    const asked: string[] = [];
    const events: McpEvent[] = [];
    await connect({
      onEvent: (event) => events.push(event),
      onElicitation: async (request) => {
        asked.push(request.params.message);
        return { action: 'decline' };
      },
    });
    // server-everything registers its elicitation tool once it sees the capability, then announces it.
    await waitFor(() => connection?.tools().some((tool) => tool.name === 'trigger-elicitation-request') === true);
    const outcome = await call('trigger-elicitation-request', {});
    expect(outcome.verdict.kind).toBe('executed');
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(outcome.result.content)).toMatch(/decline/i);
  });

  it('offers neither elicitation nor sampling without a handler, so the server cannot ask', async () => {
    await connect();
    const names = connection?.tools().map((tool) => tool.name) ?? [];
    expect(names).toContain('echo');
    expect(names).not.toContain('trigger-elicitation-request');
    expect(names).not.toContain('trigger-sampling-request');
    expect(connection?.client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('answers sampling only through the opted-in handler', async () => {
    const prompts: unknown[] = [];
    await connect({
      onSampling: async (params) => {
        prompts.push(params.messages);
        return {
          role: 'assistant',
          content: { type: 'text', text: 'sampled by the application' },
          model: 'test-model',
        };
      },
    });
    await waitFor(() => connection?.tools().some((tool) => tool.name === 'trigger-sampling-request') === true);
    const outcome = await call('trigger-sampling-request', { prompt: 'Say hi', maxTokens: 10 });
    expect(outcome.verdict.kind).toBe('executed');
    expect(prompts).toHaveLength(1);
    expect(JSON.stringify(outcome.result.content)).toMatch(/sampled by the application/);
  });

  it('answers roots/list with exactly the roots the application gives, and declares none without them', async () => {
    await connect();
    expect(connection?.catalogue().get('get-roots-list')).toBeUndefined();
    await connection?.close();
    await connect({ roots: [{ uri: 'file:///srv/project', name: 'project' }] });
    const listed = await call('get-roots-list', {});
    expect(listed.verdict.kind).toBe('executed');
    expect(JSON.stringify(listed.result.content)).toContain('file:///srv/project');
    await expect(connect({ roots: [{ uri: '/srv/project' }] })).rejects.toThrow(/file:\/\/ URI/);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
