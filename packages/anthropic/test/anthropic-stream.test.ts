import { ProviderError, type StreamEvent, toolCallsOf } from '@toolcircuit/core';
import { withDroppingServer } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { CUT_OFF_INPUT_ERROR, createAnthropicModel } from '../src/index.js';
import { json, MODEL_ID, message, replay, sse, syntheticCassette } from './replay.js';
import { CASE_FILE_TOOLS } from './scenario.js';
import {
  blockStop,
  collect,
  jsonDelta,
  messageDelta,
  messageStart,
  messageStop,
  ping,
  sseText,
  streamFrom,
  textDelta,
  textStart,
  toolStart,
} from './stream-events.js';

const REQUEST = { messages: [{ role: 'user' as const, content: 'go' }], tools: CASE_FILE_TOOLS };

async function streamOf(response: Parameters<typeof syntheticCassette>[1][number], note: string) {
  const { model, server } = await replay(syntheticCassette(note, [response]));
  const events = await collect(streamFrom(model, REQUEST));
  expect(server.mismatches).toEqual([]);
  return { events, server };
}

function turnEnd(events: readonly StreamEvent[]): Extract<StreamEvent, { type: 'turn-end' }> {
  const last = events.at(-1);
  if (last?.type !== 'turn-end') throw new Error(`expected turn-end last, got ${JSON.stringify(last)}`);
  expect(events.filter((e) => e.type === 'turn-end' || e.type === 'error')).toHaveLength(1);
  return last;
}

function errorEnd(events: readonly StreamEvent[]): ProviderError {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected error last, got ${JSON.stringify(last)}`);
  expect(events.filter((e) => e.type === 'turn-end' || e.type === 'error')).toHaveLength(1);
  expect(last.error).toBeInstanceOf(ProviderError);
  return last.error as ProviderError;
}

// Text, then three parallel calls (two to the same tool), arguments split inside escapes and multi-byte text.
const PARALLEL = [
  messageStart(),
  textStart(0),
  textDelta(0, 'Je cherche '),
  ping,
  textDelta(0, '« les deux » 🗂️'),
  blockStop(0),
  toolStart(1, 'toolu_1', 'chercher_dossier'),
  jsonDelta(1, ''),
  jsonDelta(1, '{"numero": "A-'),
  jsonDelta(1, '0001", "note": "dit \\"urgent'),
  jsonDelta(1, '\\" — É"}'),
  blockStop(1),
  toolStart(2, 'toolu_2', 'chercher_dossier'),
  jsonDelta(2, '{"numero"'),
  jsonDelta(2, ': "B-0002"}'),
  blockStop(2),
  toolStart(3, 'toolu_3', 'lister_dossiers'),
  jsonDelta(3, ''),
  blockStop(3),
  messageDelta('tool_use', 42),
  messageStop,
];

const PARALLEL_AS_MESSAGE = message(
  [
    { type: 'text', text: 'Je cherche « les deux » 🗂️' },
    {
      type: 'tool_use',
      id: 'toolu_1',
      name: 'chercher_dossier',
      input: { numero: 'A-0001', note: 'dit "urgent" — É' },
    },
    { type: 'tool_use', id: 'toolu_2', name: 'chercher_dossier', input: { numero: 'B-0002' } },
    { type: 'tool_use', id: 'toolu_3', name: 'lister_dossiers', input: {} },
  ],
  'tool_use',
  {
    id: 'msg_stream',
    usage: { input_tokens: 10, output_tokens: 42, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  },
);

describe('stream(): assembly', () => {
  it('delivers text deltas and every parallel call, with arguments assembled exactly', async () => {
    const { events } = await streamOf(sse(PARALLEL), 'text + three parallel calls, fragmented arguments');
    expect(events.filter((e) => e.type !== 'turn-end')).toEqual([
      { type: 'text-delta', text: 'Je cherche ' },
      { type: 'text-delta', text: '« les deux » 🗂️' },
      { type: 'tool-call-start', id: 'toolu_1', name: 'chercher_dossier', index: 0 },
      { type: 'tool-call-delta', id: 'toolu_1', argumentsDelta: '{"numero": "A-' },
      { type: 'tool-call-delta', id: 'toolu_1', argumentsDelta: '0001", "note": "dit \\"urgent' },
      { type: 'tool-call-delta', id: 'toolu_1', argumentsDelta: '\\" — É"}' },
      {
        type: 'tool-call-end',
        id: 'toolu_1',
        name: 'chercher_dossier',
        input: { numero: 'A-0001', note: 'dit "urgent" — É' },
      },
      { type: 'tool-call-start', id: 'toolu_2', name: 'chercher_dossier', index: 1 },
      { type: 'tool-call-delta', id: 'toolu_2', argumentsDelta: '{"numero"' },
      { type: 'tool-call-delta', id: 'toolu_2', argumentsDelta: ': "B-0002"}' },
      { type: 'tool-call-end', id: 'toolu_2', name: 'chercher_dossier', input: { numero: 'B-0002' } },
      { type: 'tool-call-start', id: 'toolu_3', name: 'lister_dossiers', index: 2 },
      { type: 'tool-call-end', id: 'toolu_3', name: 'lister_dossiers', input: {} },
    ]);
    const end = turnEnd(events);
    expect(end.incompleteToolCallIds).toEqual([]);
    expect(end.turn.stopReason).toEqual({ unified: 'tool_calls', raw: 'tool_use' });
    expect(end.turn.usage).toEqual({ inputTokens: 10, outputTokens: 42, totalTokens: 52, cachedInputTokens: 0 });
  });

  it('assembles the same turn generate() gives for the same exchange', async () => {
    const { events } = await streamOf(sse(PARALLEL), 'streamed exchange');
    const { model } = await replay(syntheticCassette('the same exchange, non-streaming', [json(PARALLEL_AS_MESSAGE)]));
    expect(turnEnd(events).turn).toEqual(await model.generate(REQUEST));
  });

  it('keeps thinking text and its signature (from signature_delta) for the next request', async () => {
    const { events } = await streamOf(
      sse([
        messageStart(),
        { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'List first.' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqEECkYICxgC==' } },
        blockStop(0),
        { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'EmwKAhgB==' } },
        blockStop(1),
        toolStart(2, 'toolu_t', 'lister_dossiers'),
        blockStop(2),
        messageDelta('tool_use'),
        messageStop,
      ]),
      'thinking stream before a call',
    );
    expect(events[0]).toEqual({ type: 'reasoning-delta', text: 'List first.' });
    expect(turnEnd(events).turn.content).toEqual([
      { type: 'reasoning', text: 'List first.', providerMetadata: { anthropic: { signature: 'EqEECkYICxgC==' } } },
      { type: 'reasoning', text: '', providerMetadata: { anthropic: { data: 'EmwKAhgB==' } } },
      { type: 'tool_call', id: 'toolu_t', name: 'lister_dossiers', input: {} },
    ]);
  });

  it('a call that stopped with invalid JSON on a normal end is reported malformed, not incomplete', async () => {
    const { events } = await streamOf(
      sse([
        messageStart(),
        toolStart(0, 'toolu_bad', 'chercher_dossier'),
        jsonDelta(0, '{"numero": A-1}'),
        blockStop(0),
        messageDelta('tool_use'),
        messageStop,
      ]),
      'invalid JSON arguments (defensive: Anthropic validates, not seen in recordings)',
    );
    const inputError = 'tool arguments are not valid JSON';
    expect(events.at(-2)).toEqual({
      type: 'tool-call-end',
      id: 'toolu_bad',
      name: 'chercher_dossier',
      input: undefined,
      inputError,
    });
    const end = turnEnd(events);
    expect(end.incompleteToolCallIds).toEqual([]);
    expect(end.turn.content).toEqual([
      {
        type: 'tool_call',
        id: 'toolu_bad',
        name: 'chercher_dossier',
        input: undefined,
        rawInput: '{"numero": A-1}',
        inputError,
      },
    ]);
  });
  it('keeps server-tool blocks (input streamed) and the container for the next request, like generate()', async () => {
    const { events } = await streamOf(
      sse([
        messageStart(),
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'code_execution', input: {} },
        },
        jsonDelta(0, '{"code": "print(1)"}'),
        blockStop(0),
        {
          type: 'content_block_start',
          index: 1,
          content_block: {
            type: 'tool_use',
            id: 'toolu_p',
            name: 'lister_dossiers',
            input: {},
            caller: { type: 'code_execution_20260120', tool_id: 'srvtoolu_1' },
          },
        },
        blockStop(1),
        {
          type: 'message_delta',
          delta: {
            stop_reason: 'tool_use',
            stop_sequence: null,
            container: { id: 'container_1', expires_at: '2026-12-01T00:00:00Z' },
          },
          usage: { output_tokens: 9 },
        },
        messageStop,
      ]),
      'programmatic tool call: a server_tool_use then a tool_use it called (shape from the recorded TestSyncRunTools 092be1de)',
    );
    const { turn } = turnEnd(events);
    expect(turn.content).toEqual([
      {
        type: 'tool_call',
        id: 'toolu_p',
        name: 'lister_dossiers',
        input: {},
        providerMetadata: { anthropic: { caller: { type: 'code_execution_20260120', tool_id: 'srvtoolu_1' } } },
      },
    ]);
    expect(turn.providerMetadata?.['anthropic']).toMatchObject({
      container: 'container_1',
      serverBlocks: [
        {
          before: 0,
          block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'code_execution', input: { code: 'print(1)' } },
        },
      ],
    });
  });
});

describe('stream(): faults', () => {
  it('max_tokens mid-arguments: the call is incomplete, never ended, and cut off in the turn', async () => {
    // Same shape as the recorded anthropic-sdk-python incomplete_partial_json_response.txt.
    const { events } = await streamOf(
      sse([
        messageStart(),
        textStart(0),
        textDelta(0, 'Writing the file.'),
        blockStop(0),
        toolStart(1, 'toolu_cut', 'chercher_dossier'),
        jsonDelta(1, ''),
        jsonDelta(1, '{"numero": "A-12'),
        messageDelta('max_tokens'),
        messageStop,
      ]),
      'max_tokens cuts the JSON of the second block',
    );
    expect(events.some((e) => e.type === 'tool-call-end')).toBe(false);
    const end = turnEnd(events);
    expect(end.incompleteToolCallIds).toEqual(['toolu_cut']);
    expect(end.turn.stopReason).toEqual({ unified: 'max_tokens', raw: 'max_tokens' });
    expect(toolCallsOf(end.turn.content)).toEqual([
      {
        type: 'tool_call',
        id: 'toolu_cut',
        name: 'chercher_dossier',
        input: undefined,
        rawInput: '{"numero": "A-12',
        inputError: CUT_OFF_INPUT_ERROR,
      },
    ]);
  });

  it('a body cut mid-event (inside an argument) ends with a retryable connection error, no turn-end', async () => {
    const whole = sseText([
      messageStart(),
      toolStart(0, 'toolu_ok', 'lister_dossiers'),
      jsonDelta(0, '{}'),
      blockStop(0),
      toolStart(1, 'toolu_cut', 'chercher_dossier'),
      jsonDelta(1, '{"numero": "B-'),
    ]);
    const cut = `${whole}event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"00`;
    const { events } = await streamOf(
      { status: 200, headers: { 'content-type': 'text/event-stream' }, body: { kind: 'text', text: cut } },
      'connection closed in the middle of an input_json_delta event',
    );
    // The call that stopped with valid JSON ended before the cut; the cut one never ends.
    expect(
      events.filter((e) => e.type === 'tool-call-end').map((e) => (e.type === 'tool-call-end' ? e.id : '')),
    ).toEqual(['toolu_ok']);
    expect(events.filter((e) => e.type !== 'error').map((e) => e.type)).toEqual([
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'tool-call-start',
      'tool-call-delta',
    ]);
    const error = errorEnd(events);
    expect(error).toMatchObject({ code: 'connection', retryable: true, provider: 'anthropic' });
    expect(error.message).toBe(
      'anthropic: the stream ended before the provider finished the turn (no stop reason, no message_stop); ' +
        '1 tool call was left incomplete and was not run',
    );
  });

  it('a body cut after every block stopped but before the stop reason is still an error, not a turn', async () => {
    const body = sseText([
      messageStart(),
      textStart(0),
      textDelta(0, 'Deux recherches.'),
      blockStop(0),
      toolStart(1, 'toolu_a', 'chercher_dossier'),
      jsonDelta(1, '{"numero": "A-1"}'),
      blockStop(1),
      toolStart(2, 'toolu_b', 'chercher_dossier'),
      jsonDelta(2, '{"numero": "B-2"}'),
    ]);
    const { events } = await streamOf(
      { status: 200, headers: { 'content-type': 'text/event-stream' }, body: { kind: 'text', text: body } },
      'connection closed between events: second call open, no message_delta, no message_stop',
    );
    expect(events.filter((e) => e.type === 'tool-call-end').map((e) => e.type === 'tool-call-end' && e.id)).toEqual([
      'toolu_a',
    ]);
    const error = errorEnd(events);
    expect(error).toMatchObject({ code: 'connection', retryable: true });
    expect(error.message).toContain('1 tool call was left incomplete');
  });

  it('a body cut after a call stopped with unparsable JSON counts it with the open one, and ends neither', async () => {
    const body = sseText([
      messageStart(),
      toolStart(0, 'toolu_a', 'chercher_dossier'),
      jsonDelta(0, '{"numero": "A-'),
      blockStop(0),
      toolStart(1, 'toolu_b', 'chercher_dossier'),
      jsonDelta(1, '{"numero'),
    ]);
    const { events } = await streamOf(
      { status: 200, headers: { 'content-type': 'text/event-stream' }, body: { kind: 'text', text: body } },
      'connection closed with one block stopped on unparsable JSON and one still open',
    );
    expect(events.some((e) => e.type === 'tool-call-end')).toBe(false);
    expect(errorEnd(events).message).toContain('2 tool calls were left incomplete and were not run');
  });

  it('the connection lost inside an argument is a retryable connection error naming the cut call', async () => {
    const text = `${sseText([
      messageStart(),
      toolStart(0, 'toolu_ok', 'lister_dossiers'),
      jsonDelta(0, '{}'),
      blockStop(0),
      toolStart(1, 'toolu_cut', 'chercher_dossier'),
      jsonDelta(1, '{"numero": "B-'),
    ])}event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"00`;
    const events = await withDroppingServer(text, (baseURL) =>
      collect(
        streamFrom(
          createAnthropicModel({ model: MODEL_ID, apiKey: 'test-key-not-secret', baseURL, maxRetries: 0 }),
          REQUEST,
        ),
      ),
    );
    expect(
      events.filter((e) => e.type === 'tool-call-end').map((e) => (e.type === 'tool-call-end' ? e.id : '')),
    ).toEqual(['toolu_ok']);
    const error = errorEnd(events);
    expect(error).toMatchObject({ code: 'connection', retryable: true });
    expect(error.message).toMatch(
      /^anthropic: the stream ended before the provider finished the turn \(connection lost: .+\); 1 tool call was left incomplete and was not run$/,
    );
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('a stop reason without message_stop is a finished turn (turn-end), as in the recorded bodies', async () => {
    const { events } = await streamOf(
      sse([
        messageStart(),
        toolStart(0, 'toolu_ok', 'lister_dossiers'),
        jsonDelta(0, '{}'),
        blockStop(0),
        messageDelta('tool_use'),
      ]),
      'message_delta with the stop reason, then the body ends',
    );
    const end = turnEnd(events);
    expect(end.incompleteToolCallIds).toEqual([]);
    expect(end.turn.stopReason).toEqual({ unified: 'tool_calls', raw: 'tool_use' });
  });

  it('an error event mid-stream ends the stream with a retryable overloaded ProviderError', async () => {
    const { events } = await streamOf(
      {
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        body: {
          kind: 'sse',
          events: [
            { event: 'message_start', data: JSON.stringify(messageStart()) },
            { event: 'content_block_start', data: JSON.stringify(toolStart(0, 'toolu_x', 'lister_dossiers')) },
            {
              event: 'error',
              data: JSON.stringify({
                type: 'error',
                error: { type: 'overloaded_error', message: 'Overloaded' },
                request_id: 'req_mid',
              }),
            },
          ],
        },
      },
      'overloaded_error event after the first block started (shape from the API error docs)',
    );
    expect(events[0]).toEqual({ type: 'tool-call-start', id: 'toolu_x', name: 'lister_dossiers', index: 0 });
    expect(errorEnd(events)).toMatchObject({
      code: 'overloaded',
      retryable: true,
      status: undefined,
      providerCode: 'overloaded_error',
      requestId: 'req_mid',
    });
  });

  it('a 429 before the stream starts is an error event with retryAfterMs', async () => {
    const { events } = await streamOf(
      json({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }, 429, {
        'retry-after': '7',
        'x-should-retry': 'true',
      }),
      '429 answered to a streaming request',
    );
    expect(events).toHaveLength(1);
    expect(errorEnd(events)).toMatchObject({ code: 'rate_limited', status: 429, retryable: true, retryAfterMs: 7000 });
  });

  it('sends stream: true on the same path, with the same body otherwise', async () => {
    const { server } = await streamOf(sse(PARALLEL), 'body check');
    expect(server.received[0]?.path).toBe('/v1/messages');
    expect(server.received[0]?.body).toMatchObject({ stream: true, max_tokens: 4096, model: 'claude-sonnet-4-6' });
  });
});

describe('stream(): abort', () => {
  it('aborting after the first event ends with an aborted error and no turn-end', async () => {
    const { model } = await replay(syntheticCassette('a whole stream, aborted by the consumer', [sse(PARALLEL)]));
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    for await (const event of streamFrom(model, { ...REQUEST, signal: controller.signal })) {
      events.push(event);
      controller.abort();
    }
    expect(events).toHaveLength(2);
    expect(errorEnd(events)).toMatchObject({ code: 'aborted', retryable: false });
  });

  it('an already-aborted signal sends nothing', async () => {
    const { model, server } = await replay(syntheticCassette('never served', [sse(PARALLEL)]));
    const controller = new AbortController();
    controller.abort();
    const events = await collect(streamFrom(model, { ...REQUEST, signal: controller.signal }));
    expect(errorEnd(events)).toMatchObject({ code: 'aborted' });
    expect(server.received).toHaveLength(0);
  });

  it('a configuration error throws at the call, before any traffic', async () => {
    const { model, server } = await replay(syntheticCassette('never served', [sse(PARALLEL)]));
    expect(() => streamFrom(model, { ...REQUEST, toolChoice: { type: 'tool', name: 'absent' } })).toThrow(
      expect.objectContaining({ code: 'unknown_tool_choice' }),
    );
    expect(server.received).toHaveLength(0);
  });
});
