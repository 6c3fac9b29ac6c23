// A context policy with `native: true` over the replay server, synthetic responses: on a model with context
// editing the request goes whole with `context_management` and its beta header, and what the API cleared is
// kept on the turn; on a model without it the circuit clears the results itself.
import {
  type ContextPolicy,
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  type JsonObject,
  runLoop,
  streamLoop,
} from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { supportsContextEditing } from '../src/anthropic-context-editing.js';
import { AnthropicConfigurationError, createAnthropicModel } from '../src/index.js';
import { json, message, replay, sse, syntheticCassette } from './replay.js';
import { blockStop, jsonDelta, messageStart, messageStop, textDelta, textStart, toolStart } from './stream-events.js';

const PAGE = 'archive page text '.repeat(1_200);
const catalogue = createCatalogue([
  defineTool({
    name: 'read_page',
    description: 'Reads a page.',
    inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
    right: everySession,
    run: () => PAGE,
  }),
  defineTool({
    name: 'audit.log',
    description: 'Appends to the audit log.',
    inputSchema: { type: 'object' },
    right: everySession,
    run: () => 'logged',
  }),
]);
const session = createSession({ id: 's', humanId: 'h' });
const user = [{ role: 'user' as const, content: 'Read the archive.' }];
const policy: ContextPolicy = {
  maxTokens: 6_000,
  keepTurns: 1,
  clearAtLeast: 1_000,
  keepTools: ['audit.log'],
  native: true,
};
const applied = {
  applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 1, cleared_input_tokens: 5_400 }],
};

const readTurn = (id: string) =>
  json(message([{ type: 'tool_use', id, name: 'read_page', input: { n: 1 } }], 'tool_use'));

/** The requests' `tool_result` contents, in order. */
function sentResults(body: unknown): string[] {
  const messages = ((body ?? {}) as JsonObject)['messages'] as JsonObject[];
  return messages.flatMap((entry) =>
    Array.isArray(entry['content'])
      ? (entry['content'] as JsonObject[])
          .filter((block) => block['type'] === 'tool_result')
          .map((block) => JSON.stringify(block['content']))
      : [],
  );
}

describe('anthropic context editing (a context policy with native: true)', () => {
  it('sends the whole history with context_management and its beta header; keeps what the API cleared', async () => {
    const { model, server } = await replay(
      syntheticCassette('context editing: three reads, then an answer that reports a clearing', [
        readTurn('toolu_syn1'),
        readTurn('toolu_syn2'),
        readTurn('toolu_syn3'),
        json(message([{ type: 'text', text: 'Read.' }], 'end_turn', { context_management: applied })),
      ]),
    );
    expect(model.clearsToolResults).toBe(true);
    const result = await runLoop({ model, catalogue, session, messages: user, contextPolicy: policy });
    expect(result.status).toBe('completed');
    const last = server.received.at(-1);
    expect(last?.headers['anthropic-beta']).toBe('context-management-2025-06-27');
    expect(((last?.body ?? {}) as JsonObject)['context_management']).toEqual({
      edits: [
        {
          type: 'clear_tool_uses_20250919',
          trigger: { type: 'input_tokens', value: 6_000 },
          keep: { type: 'tool_uses', value: 1 },
          clear_at_least: { type: 'input_tokens', value: 1_000 },
          // As the wire names the tool (Anthropic's names allow no dot).
          exclude_tools: ['audit_log'],
        },
      ],
    });
    // Nothing cleared on our side: every result goes whole, the API clears.
    expect(sentResults(last?.body)).toEqual([PAGE, PAGE, PAGE].map((text) => JSON.stringify(text)));
    expect(result.turns.at(-1)?.providerMetadata?.['anthropic']?.['contextManagement']).toEqual(applied);
  });

  it('streams the same request, and reads the clearing from message_delta', async () => {
    const { model, server } = await replay(
      syntheticCassette('context editing, streamed: a read, then an answer that reports a clearing', [
        sse([
          messageStart(),
          toolStart(0, 'toolu_syn1', 'read_page'),
          jsonDelta(0, '{"n":1}'),
          blockStop(0),
          {
            type: 'message_delta',
            delta: { stop_reason: 'tool_use', stop_sequence: null },
            usage: { output_tokens: 5 },
          },
          messageStop,
        ]),
        sse([
          messageStart('msg_stream2'),
          textStart(0),
          textDelta(0, 'Read.'),
          blockStop(0),
          {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: 5 },
            context_management: applied,
          },
          messageStop,
        ]),
      ]),
    );
    const stream = streamLoop({ model, catalogue, session, messages: user, contextPolicy: policy });
    for await (const _event of stream) {
      // every event read
    }
    const result = await stream.result;
    expect(result.status).toBe('completed');
    for (const request of server.received) {
      expect(request.headers['anthropic-beta']).toBe('context-management-2025-06-27');
      expect((request.body as JsonObject)['context_management']).toBeDefined();
    }
    expect(result.turns.at(-1)?.providerMetadata?.['anthropic']?.['contextManagement']).toEqual(applied);
  });

  it('on a model without context editing the circuit clears, and sends neither the field nor the header', async () => {
    const { model, server } = await replay(
      syntheticCassette('no context editing: three reads, then an answer', [
        readTurn('toolu_syn1'),
        readTurn('toolu_syn2'),
        readTurn('toolu_syn3'),
        json(message([{ type: 'text', text: 'Read.' }], 'end_turn')),
      ]),
      { model: 'claude-3-7-sonnet-20250219' },
    );
    expect(model.clearsToolResults).toBe(false);
    await runLoop({ model, catalogue, session, messages: user, contextPolicy: policy });
    const last = server.received.at(-1);
    expect(last?.headers['anthropic-beta']).toBeUndefined();
    expect(((last?.body ?? {}) as JsonObject)['context_management']).toBeUndefined();
    const results = sentResults(last?.body);
    expect(results[0]).toContain('Result cleared to fit the context window');
    expect(results.at(-1)).toBe(JSON.stringify(PAGE));
  });

  it('tells the models that have it by their id; the contextEditing option says it for any other', () => {
    for (const id of [
      'claude-sonnet-4-5-20250929',
      'claude-opus-4-1-20250805',
      'claude-haiku-4-5',
      'claude-sonnet-5-5',
    ])
      expect([id, supportsContextEditing(id)]).toEqual([id, true]);
    for (const id of ['claude-3-7-sonnet-20250219', 'claude-3-5-haiku-latest', 'claude-haiku-3', 'my-proxy-alias'])
      expect([id, supportsContextEditing(id)]).toEqual([id, false]);
    const key = { apiKey: 'test-key-not-secret' };
    expect(createAnthropicModel({ ...key, model: 'my-proxy-alias', contextEditing: true }).clearsToolResults).toBe(
      true,
    );
    expect(createAnthropicModel({ ...key, model: 'claude-sonnet-4-6', contextEditing: false }).clearsToolResults).toBe(
      false,
    );
    expect(() =>
      createAnthropicModel({ ...key, model: 'claude-sonnet-4-6', contextEditing: 'yes' as unknown as boolean }),
    ).toThrow(AnthropicConfigurationError);
  });
});
