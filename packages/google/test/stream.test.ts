import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type JsonValue, type Message, ProviderError, type ToolDeclaration } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { collect, errorEvent, turnEnd } from './support/collect.js';
import {
  errorInteraction,
  jsonInteraction,
  rawInteraction,
  SDKS,
  sseInteraction,
  streamPath,
  syntheticCassette,
} from './support/gemini-cassette.js';
import { modelFor, withReplay } from './support/replay.js';

const TOOLS: readonly ToolDeclaration[] = [
  {
    name: 'get_weather',
    description: 'Weather for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
];
const MESSAGES: readonly Message[] = [{ role: 'user', content: 'Weather in Paris and Lyon?' }];
const REQUEST = { messages: MESSAGES, tools: TOOLS };

const meta = { modelVersion: 'gemini-2.5-flash', responseId: 'stream-1' };

/** The same answer, whole (for generate) and in chunks (for stream). */
const WHOLE = {
  candidates: [
    {
      content: {
        role: 'model',
        parts: [
          { text: 'Thinking about it', thought: true, thoughtSignature: 'VGhvdWdodFNpZw==' },
          { text: 'Checking both cities.' },
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'Q2FsbFNpZw==' },
          { functionCall: { name: 'get_weather', args: { city: 'Lyon' } } },
        ],
      },
      finishReason: 'STOP',
    },
  ],
  usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 30, thoughtsTokenCount: 8, totalTokenCount: 50 },
  ...meta,
};
const CHUNKS: JsonValue[] = [
  { candidates: [{ content: { role: 'model', parts: [{ text: 'Thinking ', thought: true }] } }], ...meta },
  {
    candidates: [
      {
        content: { role: 'model', parts: [{ text: 'about it', thought: true, thoughtSignature: 'VGhvdWdodFNpZw==' }] },
      },
    ],
    ...meta,
  },
  { candidates: [{ content: { role: 'model', parts: [{ text: 'Checking ' }] } }], ...meta },
  { candidates: [{ content: { role: 'model', parts: [{ text: 'both cities.' }] } }], ...meta },
  {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [
            { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'Q2FsbFNpZw==' },
            { functionCall: { name: 'get_weather', args: { city: 'Lyon' } } },
          ],
        },
        finishReason: 'STOP',
      },
    ],
    usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 30, thoughtsTokenCount: 8, totalTokenCount: 50 },
    ...meta,
  },
];

function sseText(chunks: readonly JsonValue[]): string {
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join('');
}

describe.each(SDKS)('stream() over %s', (sdk) => {
  it('streams deltas and both parallel calls, and assembles the same turn generate() gives', async () => {
    const cassette = syntheticCassette('one answer twice: whole (generate) and as SSE chunks (stream)', [
      jsonInteraction(WHOLE),
      sseInteraction(CHUNKS),
    ]);
    await withReplay(cassette, async (server) => {
      const model = modelFor(sdk, server);
      const generated = await model.generate(REQUEST);
      const events = await collect(model.stream?.(REQUEST));
      expect(server.received[1]?.query).toEqual({ alt: 'sse' });
      const ids = generated.content.flatMap((part) => (part.type === 'tool_call' ? [part.id] : []));
      expect(events.slice(0, -1)).toEqual([
        { type: 'reasoning-delta', text: 'Thinking ' },
        {
          type: 'reasoning-delta',
          text: 'about it',
          providerMetadata: { google: { thoughtSignature: 'VGhvdWdodFNpZw==' } },
        },
        { type: 'text-delta', text: 'Checking ' },
        { type: 'text-delta', text: 'both cities.' },
        { type: 'tool-call-start', id: ids[0], name: 'get_weather', index: 0 },
        { type: 'tool-call-delta', id: ids[0], argumentsDelta: '{"city":"Paris"}' },
        { type: 'tool-call-end', id: ids[0], name: 'get_weather', input: { city: 'Paris' } },
        { type: 'tool-call-start', id: ids[1], name: 'get_weather', index: 1 },
        { type: 'tool-call-delta', id: ids[1], argumentsDelta: '{"city":"Lyon"}' },
        { type: 'tool-call-end', id: ids[1], name: 'get_weather', input: { city: 'Lyon' } },
      ]);
      const end = turnEnd(events);
      expect(end.incompleteToolCallIds).toEqual([]);
      expect(end.turn).toEqual(generated);
      expect(end.turn.stopReason).toEqual({ unified: 'tool_calls', raw: 'STOP' });
    });
  });

  it("a stream cut mid-event (inside a call's arguments) ends with a retryable connection error, no turn-end", async () => {
    const body = `${sseText(CHUNKS.slice(0, 3))}data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Par`;
    const cassette = syntheticCassette('SSE body cut in the middle of a functionCall chunk', [
      rawInteraction(streamPath(), { status: 200, contentType: 'text/event-stream', text: body }),
    ]);
    await withReplay(cassette, async (server) => {
      const events = await collect(modelFor(sdk, server).stream?.(REQUEST));
      expect(events.filter((event) => event.type.startsWith('tool-call'))).toEqual([]);
      expect(events.filter((event) => event.type !== 'error').map((event) => event.type)).toEqual([
        'reasoning-delta',
        'reasoning-delta',
        'text-delta',
      ]);
      expect(errorEvent(events).error).toBeInstanceOf(ProviderError);
      expect(errorEvent(events).error).toMatchObject({ code: 'connection', retryable: true });
    });
  });

  it('an error chunk mid-stream becomes an error event with the provider code', async () => {
    const body = `${sseText(CHUNKS.slice(0, 2))}data: ${JSON.stringify({
      error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' },
    })}\r\n\r\n`;
    const cassette = syntheticCassette('an error chunk after two good chunks (shape from Gemini issue reports)', [
      rawInteraction(streamPath(), { status: 200, contentType: 'text/event-stream', text: body }),
    ]);
    await withReplay(cassette, async (server) => {
      const events = await collect(modelFor(sdk, server).stream?.(REQUEST));
      expect(errorEvent(events).error).toMatchObject({ code: 'overloaded', status: 503, retryable: true });
      expect(events.filter((event) => event.type === 'reasoning-delta')).toHaveLength(2);
    });
  });

  it('a 429 before the stream starts is the only event, with retryAfterMs', async () => {
    const cassette = syntheticCassette('429 RESOURCE_EXHAUSTED answering a stream request', [
      errorInteraction(
        429,
        {
          message: 'Resource has been exhausted (e.g. check quota).',
          status: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' }],
        },
        streamPath(),
      ),
    ]);
    await withReplay(cassette, async (server) => {
      const events = await collect(modelFor(sdk, server).stream?.(REQUEST));
      expect(events).toHaveLength(1);
      expect(errorEvent(events).error).toMatchObject({ code: 'rate_limited', status: 429, retryAfterMs: 7000 });
      expect(server.received).toHaveLength(1);
    });
  });

  it('a call still open when MAX_TOKENS ends the stream is incomplete: no tool-call-end, inputError set', async () => {
    const cassette = syntheticCassette('Vertex-style streamed arguments cut by MAX_TOKENS', [
      sseInteraction([
        {
          candidates: [
            { content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', willContinue: true } }] } },
          ],
        },
        {
          candidates: [
            {
              content: {
                role: 'model',
                parts: [
                  {
                    functionCall: {
                      partialArgs: [{ jsonPath: '$.city', stringValue: 'Par', willContinue: true }],
                      willContinue: true,
                    },
                  },
                ],
              },
              finishReason: 'MAX_TOKENS',
            },
          ],
        },
      ]),
    ]);
    await withReplay(cassette, async (server) => {
      const events = await collect(modelFor(sdk, server).stream?.(REQUEST));
      expect(events.map((event) => event.type)).toEqual(['tool-call-start', 'turn-end']);
      const end = turnEnd(events);
      const [call] = end.turn.content;
      expect(end.incompleteToolCallIds).toEqual([call?.type === 'tool_call' ? call.id : 'missing']);
      expect(call).toMatchObject({
        type: 'tool_call',
        name: 'get_weather',
        input: undefined,
        rawInput: '{"city":"Par"}',
      });
      expect(call?.type === 'tool_call' ? call.inputError : undefined).toMatch(/must not run/);
      expect(end.turn.stopReason).toEqual({ unified: 'max_tokens', raw: 'MAX_TOKENS' });
    });
  });

  it('honours an abort in the middle of the stream', async () => {
    const controller = new AbortController();
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(sseText(CHUNKS.slice(0, 1)));
      // The rest never comes: only the abort can end this stream.
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const events = [];
      const stream = modelFor(sdk, { url: `http://127.0.0.1:${port}` }).stream?.({
        ...REQUEST,
        signal: controller.signal,
      });
      for await (const event of stream ?? []) {
        events.push(event);
        if (event.type === 'reasoning-delta') controller.abort();
      }
      expect(events.map((event) => event.type)).toEqual(['reasoning-delta', 'error']);
      expect(errorEvent(events).error).toMatchObject({ code: 'aborted', retryable: false });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
