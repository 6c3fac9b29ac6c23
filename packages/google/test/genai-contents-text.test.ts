import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GoogleGenAI } from '@google/genai';
import {
  createCatalogue,
  createSession,
  defineTool,
  type Message,
  type Model,
  type ModelRequest,
  runLoop,
} from '@toolcircuit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGoogleModel } from '../src/index.js';

/**
 * Over a client the adapter built, the history goes to the wire as reused text put in the place of a
 * placeholder the SDK serialised (genai-contents-text.ts). These tests hold that body to the one the SDK
 * itself makes from the history (a client given by the application takes that path): the same requests,
 * whole conversations, JSON compared, over generateContent and streamGenerateContent. Synthetic answers
 * from a local server; nothing here is a recording.
 */

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

interface Captured {
  readonly path: string;
  readonly body: unknown;
}

/** The raw body texts, in order: which path made a body shows in its key order. */
const rawTexts: string[] = [];

let server: Server;
let url = '';
const captured: Captured[] = [];
let serial = 0;

/** A model turn with a thought, a signature and two calls (one with nested and unicode arguments). */
function answer(turn: number) {
  return {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [
            { text: `Thinking about step ${turn} — "quoted" \u2028 text`, thought: true },
            {
              functionCall: {
                name: 'look_up',
                args: { query: `orders ${turn}`, filters: { open: true, tags: ['a', 'é'] } },
              },
              thoughtSignature: `c2lnbmF0dXJl${turn}`,
            },
            { functionCall: { name: 'look_up', args: { query: `case ${turn}`, filters: { open: false, tags: [] } } } },
          ],
        },
        finishReason: 'STOP',
      },
    ],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'gemini-2.5-flash',
    responseId: `response-${turn}`,
  };
}

function handle(request: IncomingMessage, response: ServerResponse): void {
  let text = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => {
    text += chunk;
  });
  request.on('end', () => {
    captured.push({ path: request.url ?? '', body: JSON.parse(text) as unknown });
    rawTexts.push(text);
    serial += 1;
    const json = JSON.stringify(answer(serial));
    if ((request.url ?? '').includes('streamGenerateContent')) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`data: ${json}\r\n\r\n`);
    } else {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(json);
    }
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const lookUp = defineTool({
  name: 'look_up',
  description: 'Looks up orders and cases.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      filters: {
        type: 'object',
        properties: { open: { type: 'boolean' }, tags: { type: 'array', items: { type: 'string' } } },
      },
    },
    required: ['query'],
  },
  right: 'orders:read',
  run: (input) =>
    input.query.startsWith('case')
      ? {
          isError: false,
          content: [
            { type: 'text' as const, text: `scan of ${input.query}` },
            { type: 'image' as const, mediaType: 'image/png', data: PNG_BASE64 },
          ],
        }
      : { found: [input.query], note: 'line\nbreak, "quotes", \\ backslash' },
});

/** The adapter's own client (history as reused text) and an application's client (the SDK serialises it). */
function models(): { spliced: Model; bySdk: Model } {
  return {
    spliced: createGoogleModel({ model: 'gemini-2.5-flash', apiKey: 'test-key-not-a-secret', baseURL: url, env: {} }),
    bySdk: createGoogleModel({
      model: 'gemini-2.5-flash',
      client: new GoogleGenAI({ apiKey: 'test-key-not-a-secret', httpOptions: { baseUrl: url } }),
      env: {},
    }),
  };
}

async function bodiesOf(run: () => Promise<unknown>): Promise<Captured[]> {
  captured.length = 0;
  rawTexts.length = 0;
  serial = 0;
  await run();
  return [...captured];
}

async function playLoop(model: Model, turns: number, providerOptions?: ModelRequest['providerOptions']) {
  const result = await runLoop({
    model,
    catalogue: createCatalogue([lookUp]),
    session: createSession({ id: 's', humanId: 'h', rights: ['orders:read'] }),
    system: 'You look things up.',
    messages: [{ role: 'user', content: 'Which orders are open? ✓' }],
    maxTurns: turns,
    ...(providerOptions === undefined ? {} : { providerOptions }),
  });
  expect(result.status).toBe('max_turns');
  return result.messages;
}

describe('@google/genai request body with the history as reused text', () => {
  it('is, request after request, the body the SDK makes from the history itself', async () => {
    const { spliced, bySdk } = models();
    const ours = await bodiesOf(() => playLoop(spliced, 12));
    // Our contents are written role first; the SDK's conversion writes parts first.
    expect(rawTexts.every((text) => text.includes('"contents":[{"role":"user","parts":'))).toBe(true);
    const sdks = await bodiesOf(() => playLoop(bySdk, 12));
    expect(rawTexts.every((text) => text.includes('"contents":[{"parts":'))).toBe(true);
    expect(ours).toHaveLength(12);
    expect(ours).toEqual(sdks);
    const last = ours.at(-1)?.body as { contents: unknown[] };
    // The history really is in it: the user message, then 11 model turns and 11 tool replies.
    expect(last.contents).toHaveLength(23);
    expect(JSON.stringify(last)).not.toContain('toolcircuit-contents-');
  });

  it('keeps the SDK merging providerOptions.google into the body, and extraBody contents winning', async () => {
    const { spliced, bySdk } = models();
    const extra = { google: { generationConfig: { topK: 7 }, labels: { team: 'orders' } } };
    const ours = await bodiesOf(() => playLoop(spliced, 3, extra));
    expect(ours).toEqual(await bodiesOf(() => playLoop(bySdk, 3, extra)));
    expect((ours[2]?.body as { generationConfig?: unknown } | undefined)?.generationConfig).toEqual({ topK: 7 });

    const replaced = { google: { contents: [{ role: 'user', parts: [{ text: 'only this' }] }] } };
    const override = await bodiesOf(() =>
      spliced.generate({ messages: [{ role: 'user', content: 'hi' }], tools: [], providerOptions: replaced }),
    );
    expect((override[0]?.body as { contents?: unknown } | undefined)?.contents).toEqual(replaced.google.contents);
  });

  it('streams with the same body as generate, and as the SDK makes it', async () => {
    const { spliced, bySdk } = models();
    const history: readonly Message[] = await playLoop(spliced, 4);
    const request: ModelRequest = {
      system: 'You look things up.',
      messages: history,
      tools: createCatalogue([lookUp]).declarations,
    };
    const drain = async (model: Model) => {
      if (model.stream === undefined) throw new Error('the Google model streams');
      for await (const event of model.stream(request)) if (event.type === 'error') throw new Error(String(event.error));
    };
    const ours = await bodiesOf(() => drain(spliced));
    const sdks = await bodiesOf(() => drain(bySdk));
    const generated = await bodiesOf(() => spliced.generate(request));
    expect(ours[0]?.path).toContain('streamGenerateContent');
    expect(ours.map((entry) => entry.body)).toEqual(sdks.map((entry) => entry.body));
    expect(ours.map((entry) => entry.body)).toEqual(generated.map((entry) => entry.body));
  });

  it('leaves an empty history to the SDK, which refuses it as before', async () => {
    const { spliced, bySdk } = models();
    const ours = await spliced.generate({ messages: [], tools: [] }).then(
      () => 'sent',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    const sdks = await bySdk.generate({ messages: [], tools: [] }).then(
      () => 'sent',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(ours).toBe(sdks);
    expect(ours).not.toBe('sent');
  });
});
