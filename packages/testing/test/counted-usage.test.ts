// `countedUsage` on the replay server: each JSON answer reports the input tokens counted from the request it
// answers, where its protocol puts them; synthetic answers made by the conformance wires.
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Cassette,
  type CassetteProtocol,
  conformanceWireOf,
  countedUsage,
  type ReplayServer,
  startReplayServer,
} from '../src/index.js';

const open: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function serve(protocol: CassetteProtocol, respond?: Parameters<typeof startReplayServer>[1]) {
  const wire = conformanceWireOf(protocol);
  const position = { scenarioId: 'counted', turnIndex: 0, turn: { text: 'ok', calls: [] } };
  const cassette: Cassette = {
    format: 'toolcircuit-cassette/1',
    protocol,
    provenance: { kind: 'synthetic', note: 'countedUsage test: one answer made by the conformance wire' },
    model: wire.model,
    interactions: [
      {
        request: { method: 'POST', path: wire.path },
        response: { status: 200, headers: {}, body: { kind: 'json', json: wire.responseBody(position) } },
      },
    ],
  };
  const server = await startReplayServer(cassette, respond);
  open.push(server);
  const answer = await fetch(`${server.url}${wire.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: ['x'.repeat(4_000)] }),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, Record<string, number>> };
}

describe('countedUsage', () => {
  const count = countedUsage((received) => Math.ceil(received.bodyBytes / 4));
  it('reports the count of the request answered, where each protocol puts it, totals matching', async () => {
    const anthropic = (await serve('anthropic-messages', { respond: count })).body;
    expect(anthropic['usage']).toMatchObject({ input_tokens: 1005, cache_read_input_tokens: 0 });
    const chat = (await serve('openai-chat', { respond: count })).body['usage'];
    expect(chat?.['prompt_tokens']).toBe(1005);
    expect(chat?.['total_tokens']).toBe(1005 + (chat?.['completion_tokens'] ?? 0));
    const responses = (await serve('openai-responses', { respond: count })).body['usage'];
    expect(responses?.['input_tokens']).toBe(1005);
    expect(responses?.['total_tokens']).toBe(1005 + (responses?.['output_tokens'] ?? 0));
    const gemini = (await serve('gemini', { respond: count })).body['usageMetadata'];
    expect(gemini?.['promptTokenCount']).toBe(1005);
    expect(gemini?.['totalTokenCount']).toBe(1005 + (gemini?.['candidatesTokenCount'] ?? 0));
    // Without it, the recorded figure.
    expect((await serve('anthropic-messages')).body['usage']?.['input_tokens']).not.toBe(1005);
  });

  it('a respond that throws is a 500 naming it, and the server goes on', async () => {
    const answer = await serve('anthropic-messages', {
      respond: () => {
        throw new Error('no count');
      },
    });
    expect(answer.status).toBe(500);
    expect(JSON.stringify(answer.body)).toContain('respond threw: Error: no count');
  });
});
