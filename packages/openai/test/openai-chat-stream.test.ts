import { type JsonObject, type JsonValue, ProviderError, type StreamEvent } from '@toolcircuit/core';
import { withDroppingServer } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAIChatModel } from '../src/index.js';
import {
  CHAT_PATH,
  chatCompletion,
  jsonInteraction,
  openAIError,
  sseInteraction,
  syntheticCassette,
  textInteraction,
} from './support/cassettes.js';
import { bodyOf, collect, lastError, streamOf, terminal, withChatReplay } from './support/replay.js';
import { CASE_FILE_TOOLS } from './support/scenario.js';

const ask = { messages: [{ role: 'user' as const, content: 'Go' }], tools: CASE_FILE_TOOLS };

/** A chunk shaped like the recorded gpt-4o chunks (openai-python .sse recordings). */
function chunk(delta: JsonObject, finishReason: string | null = null): JsonValue {
  return {
    id: 'chatcmpl-synthetic',
    object: 'chat.completion.chunk',
    created: 1764579600,
    model: 'gpt-4o-2024-08-06',
    system_fingerprint: 'fp_synthetic',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}
const usageChunk: JsonValue = {
  id: 'chatcmpl-synthetic',
  object: 'chat.completion.chunk',
  created: 1764579600,
  model: 'gpt-4o-2024-08-06',
  system_fingerprint: 'fp_synthetic',
  choices: [],
  usage: { prompt_tokens: 71, completion_tokens: 46, total_tokens: 117 },
};
const startCall = (index: number, id: string, name: string): JsonObject => ({
  tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }],
});
const args = (index: number, text: string): JsonObject => ({ tool_calls: [{ index, function: { arguments: text } }] });

/** Text, then two parallel calls to the same tool with their arguments split mid-token (as recorded). */
const parallelChunks: JsonValue[] = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ content: 'Je cherche ' }),
  chunk({ content: 'les deux.' }),
  chunk(startCall(0, 'call_1', 'chercher_dossier')),
  chunk(args(0, '{"num')),
  chunk(args(0, 'ero":"A-12')),
  chunk(args(0, '34"}')),
  chunk(startCall(1, 'call_2', 'chercher_dossier')),
  chunk(args(1, '{"numero":')),
  chunk(args(1, '"É-0002"}')),
  chunk({}, 'tool_calls'),
  usageChunk,
];

describe('Chat Completions streaming', () => {
  it('delivers text, every parallel call with exactly assembled arguments, and one turn-end equal to generate()', async () => {
    const cassette = syntheticCassette('openai-chat', 'the same exchange streamed and not streamed', [
      sseInteraction(CHAT_PATH, parallelChunks),
      jsonInteraction(
        CHAT_PATH,
        chatCompletion({
          content: 'Je cherche les deux.',
          toolCalls: [
            { id: 'call_1', name: 'chercher_dossier', arguments: '{"numero":"A-1234"}' },
            { id: 'call_2', name: 'chercher_dossier', arguments: '{"numero":"É-0002"}' },
          ],
        }),
      ),
    ]);
    await withChatReplay(cassette, async (model, server) => {
      const events = await collect(streamOf(model, ask));
      const generated = await model.generate(ask);
      expect(events.map((event) => event.type)).toEqual([
        'text-delta',
        'text-delta',
        'tool-call-start',
        'tool-call-delta',
        'tool-call-delta',
        'tool-call-delta',
        'tool-call-start',
        'tool-call-delta',
        'tool-call-delta',
        'tool-call-end',
        'tool-call-end',
        'turn-end',
      ]);
      const deltas = events.flatMap((event) =>
        event.type === 'tool-call-delta' && event.id === 'call_1' ? [event.argumentsDelta] : [],
      );
      expect(deltas.join('')).toBe('{"numero":"A-1234"}');
      expect(events.filter((event) => event.type === 'tool-call-start')).toEqual([
        { type: 'tool-call-start', id: 'call_1', name: 'chercher_dossier', index: 0 },
        { type: 'tool-call-start', id: 'call_2', name: 'chercher_dossier', index: 1 },
      ]);
      expect(events.filter((event) => event.type === 'tool-call-end')).toEqual([
        { type: 'tool-call-end', id: 'call_1', name: 'chercher_dossier', input: { numero: 'A-1234' } },
        { type: 'tool-call-end', id: 'call_2', name: 'chercher_dossier', input: { numero: 'É-0002' } },
      ]);
      const end = events.at(-1);
      expect(end).toEqual({ type: 'turn-end', turn: generated, incompleteToolCallIds: [] });
      const body = bodyOf(server, 0);
      expect(body['stream']).toBe(true);
      expect(body['stream_options']).toEqual({ include_usage: true });
    });
  });

  it('a stream cut in the middle of an argument ends with a retryable connection error, no turn-end, no call ended', async () => {
    const complete = parallelChunks.slice(0, 9).map((payload) => `data: ${JSON.stringify(payload)}\n\n`);
    const cut = `${complete.join('')}data: {"id":"chatcmpl-synthetic","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"\\"É-00`;
    const cassette = syntheticCassette(
      'openai-chat',
      'stream body that ends mid-event, inside the second call’s arguments',
      [textInteraction(CHAT_PATH, cut)],
    );
    const events = await withChatReplay(cassette, (model) => collect(streamOf(model, ask)));
    expect(terminal(events)).toHaveLength(1);
    // Chat has no per-call end: without a finish reason neither call can be trusted, so neither ends.
    expect(events.filter((event) => event.type !== 'error').map((event) => event.type)).toEqual([
      'text-delta',
      'text-delta',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-delta',
      'tool-call-delta',
      'tool-call-start',
      'tool-call-delta',
    ]);
    const end = lastError(events);
    expect(end.error).toBeInstanceOf(ProviderError);
    expect(end.error).toMatchObject({ code: 'connection', retryable: true, provider: 'openai' });
    expect(end.error.message).toBe(
      'openai: the stream ended before the provider finished the turn (no finish_reason); ' +
        '2 tool calls were left incomplete and were not run',
    );
  });

  it('the connection lost inside an argument is a retryable connection error counting both calls', async () => {
    const complete = parallelChunks.slice(0, 9).map((payload) => `data: ${JSON.stringify(payload)}\n\n`);
    const text = `${complete.join('')}data: {"id":"chatcmpl-synthetic","object":"chat.completion.chunk","choi`;
    const events = await withDroppingServer(text, (url) =>
      collect(
        streamOf(
          createOpenAIChatModel({ model: 'gpt-4o', apiKey: 'sk-test', baseURL: `${url}/v1`, maxRetries: 0 }),
          ask,
        ),
      ),
    );
    expect(terminal(events)).toHaveLength(1);
    expect(events.some((event) => event.type === 'tool-call-end')).toBe(false);
    const end = lastError(events);
    expect(end.error).toMatchObject({ code: 'connection', retryable: true });
    expect(end.error.message).toMatch(
      /^openai: the stream ended before the provider finished the turn \(connection lost: .+\); 2 tool calls were left incomplete and were not run$/,
    );
  });

  it('a text-only stream that stops before its finish reason is an error too', async () => {
    const body = parallelChunks
      .slice(0, 3)
      .map((payload) => `data: ${JSON.stringify(payload)}\n\n`)
      .join('');
    const cassette = syntheticCassette('openai-chat', 'connection closed between two text chunks', [
      textInteraction(CHAT_PATH, body),
    ]);
    const events = await withChatReplay(cassette, (model) => collect(streamOf(model, ask)));
    expect(events.map((event) => event.type)).toEqual(['text-delta', 'text-delta', 'error']);
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      error: {
        code: 'connection',
        retryable: true,
        message: expect.stringContaining('no tool call was left incomplete'),
      },
    });
  });

  it('a finish reason without [DONE] or the usage chunk is a finished turn', async () => {
    const body = [...parallelChunks.slice(0, 10), chunk({}, 'tool_calls')]
      .map((payload) => `data: ${JSON.stringify(payload)}\n\n`)
      .join('');
    const cassette = syntheticCassette('openai-chat', 'finish_reason arrives, then the body ends', [
      textInteraction(CHAT_PATH, body),
    ]);
    const events = await withChatReplay(cassette, (model) => collect(streamOf(model, ask)));
    expect(terminal(events)).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({
      type: 'turn-end',
      incompleteToolCallIds: [],
      turn: { stopReason: { unified: 'tool_calls', raw: 'tool_calls' } },
    });
  });

  it('max tokens during the second call: the first call ends, the second is incomplete', async () => {
    const chunks = [...parallelChunks.slice(0, 9), chunk({}, 'length'), usageChunk];
    const cassette = syntheticCassette('openai-chat', 'finish_reason length while the second call streams', [
      sseInteraction(CHAT_PATH, chunks),
    ]);
    const events = await withChatReplay(cassette, (model) => collect(streamOf(model, ask)));
    expect(
      events
        .filter((event) => event.type === 'tool-call-end')
        .map((event) => event.type === 'tool-call-end' && event.id),
    ).toEqual(['call_1']);
    const end = events.at(-1);
    if (end?.type !== 'turn-end') throw new Error('expected turn-end');
    expect(end.incompleteToolCallIds).toEqual(['call_2']);
    expect(end.turn.stopReason).toEqual({ unified: 'max_tokens', raw: 'length' });
    expect(end.turn.usage.totalTokens).toBe(117);
  });

  it('an error object in the stream ends it with one error event', async () => {
    const cassette = syntheticCassette('openai-chat', 'error payload mid-stream (the SDK raises on data.error)', [
      sseInteraction(CHAT_PATH, [
        ...parallelChunks.slice(0, 5),
        openAIError('The server had an error while processing your request.', 'server_error', null),
      ]),
    ]);
    const events = await withChatReplay(cassette, (model) => collect(streamOf(model, ask)));
    expect(terminal(events)).toHaveLength(1);
    const end = events.at(-1);
    expect(end?.type).toBe('error');
    expect(end?.type === 'error' && end.error).toMatchObject({
      kind: 'provider',
      code: 'server_error',
      retryable: true,
      status: undefined,
    });
    expect(events.some((event) => event.type === 'tool-call-end')).toBe(false);
  });

  it('a 429 before the stream starts is one error event with the retry delay', async () => {
    const cassette = syntheticCassette('openai-chat', '429 answered to a streaming request', [
      jsonInteraction(CHAT_PATH, openAIError('Rate limit reached.', 'requests', 'rate_limit_exceeded'), 429, {
        'retry-after': '2',
      }),
    ]);
    const events = await withChatReplay(cassette, (model) => collect(streamOf(model, ask)));
    expect(events).toHaveLength(1);
    expect(events[0]?.type === 'error' && events[0].error).toMatchObject({
      code: 'rate_limited',
      retryable: true,
      retryAfterMs: 2000,
      status: 429,
    });
  });

  it('invalid JSON arguments end with inputError, not as an incomplete call', async () => {
    const cassette = syntheticCassette('openai-chat', 'a streamed call whose arguments are not JSON', [
      sseInteraction(CHAT_PATH, [
        chunk(startCall(0, 'call_x', 'chercher_dossier')),
        chunk(args(0, '{numero: A}')),
        chunk({}, 'tool_calls'),
      ]),
    ]);
    const events = await withChatReplay(cassette, (model) => collect(streamOf(model, ask)));
    const ended = events.find((event) => event.type === 'tool-call-end');
    expect(ended).toMatchObject({ id: 'call_x', input: undefined });
    expect(ended?.type === 'tool-call-end' && ended.inputError).toMatch(/not valid JSON/);
    expect(events.at(-1)).toMatchObject({ type: 'turn-end', incompleteToolCallIds: [] });
  });

  it('honours abort: before the call, and in the middle of the stream', async () => {
    const cassette = syntheticCassette('openai-chat', 'two streams, each aborted', [
      sseInteraction(CHAT_PATH, parallelChunks),
      sseInteraction(CHAT_PATH, parallelChunks),
    ]);
    await withChatReplay(cassette, async (model, server) => {
      const early = new AbortController();
      early.abort();
      const before = await collect(streamOf(model, { ...ask, signal: early.signal }));
      expect(before).toHaveLength(1);
      expect(before[0]?.type === 'error' && before[0].error).toMatchObject({ code: 'aborted' });
      expect(server.received).toHaveLength(0);

      const controller = new AbortController();
      const seen: StreamEvent[] = [];
      for await (const event of streamOf(model, { ...ask, signal: controller.signal })) {
        seen.push(event);
        if (seen.length === 1) controller.abort();
      }
      expect(terminal(seen)).toHaveLength(1);
      expect(seen.at(-1)?.type === 'error' && seen.at(-1)).toMatchObject({ error: { code: 'aborted' } });
    });
  });

  it('does not ask for the usage chunk when streamUsage is off', async () => {
    const cassette = syntheticCassette('openai-chat', 'stream without usage chunk', [
      sseInteraction(CHAT_PATH, parallelChunks.slice(0, 11)),
    ]);
    await withChatReplay(
      cassette,
      async (model, server) => {
        const events = await collect(streamOf(model, ask));
        expect(events.at(-1)).toMatchObject({ type: 'turn-end', turn: { usage: { totalTokens: undefined } } });
        expect(bodyOf(server, 0)).not.toHaveProperty('stream_options');
      },
      { streamUsage: false },
    );
  });
});
