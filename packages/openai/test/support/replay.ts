import type { JsonObject, Model, ModelRequest, StreamEvent } from '@toolcircuit/core';
import { type Cassette, type ReplayServer, startReplayServer } from '@toolcircuit/testing';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '../../src/index.js';
import type { OpenAIChatModelOptions } from '../../src/openai-chat-options.js';
import type { OpenAIResponsesModelOptions } from '../../src/openai-responses-options.js';

type ChatOverrides = Partial<OpenAIChatModelOptions>;
type ResponsesOverrides = Partial<OpenAIResponsesModelOptions>;

/**
 * Runs `body` against a replay server serving `cassette`, with a model whose SDK client points at it
 * (`baseURL: url + '/v1'`). The SDK's retries are off unless a test turns them on, so one interaction
 * answers one call.
 */
export function withChatReplay<T>(
  cassette: Cassette,
  body: (model: Model, server: ReplayServer) => Promise<T>,
  overrides: ChatOverrides = {},
): Promise<T> {
  return withReplay(cassette, body, (base) => createOpenAIChatModel({ ...base, ...overrides }));
}

export function withResponsesReplay<T>(
  cassette: Cassette,
  body: (model: Model, server: ReplayServer) => Promise<T>,
  overrides: ResponsesOverrides = {},
): Promise<T> {
  return withReplay(cassette, body, (base) => createOpenAIResponsesModel({ ...base, ...overrides }));
}

interface ReplayModelBase {
  readonly model: string;
  readonly apiKey: string;
  readonly baseURL: string;
  readonly maxRetries: number;
}

async function withReplay<T>(
  cassette: Cassette,
  body: (model: Model, server: ReplayServer) => Promise<T>,
  create: (base: ReplayModelBase) => Model,
): Promise<T> {
  const server = await startReplayServer(cassette);
  try {
    const model = create({
      model: cassette.model ?? 'gpt-4o',
      apiKey: 'sk-test-not-a-real-key',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
    });
    return await body(model, server);
  } finally {
    await server.close();
  }
}

/** Collects a stream's events. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const events: T[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

/** The events that end a stream (a `turn-end` or an `error`): a stream has exactly one, last. */
export function terminal(events: readonly StreamEvent[]): StreamEvent[] {
  return events.filter((event) => event.type === 'turn-end' || event.type === 'error');
}

/** The stream's last event, which must be an `error`. */
export function lastError(events: readonly StreamEvent[]): Extract<StreamEvent, { type: 'error' }> {
  const end = events.at(-1);
  if (end?.type !== 'error') throw new Error(`expected error last, got ${JSON.stringify(end)}`);
  return end;
}

/** Awaits a promise expected to reject and returns the rejection. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

/** A base URL on 127.0.0.1 where nothing listens (a port just released), so connecting is refused at once. */
export async function closedBaseURL(): Promise<string> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

/** The JSON body of the n-th request the replay server received; fails the test when there is none. */
export function bodyOf(server: ReplayServer, index: number): JsonObject {
  const body = server.received[index]?.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new Error(`request #${index + 1} has no JSON object body`);
  }
  return body;
}

/** The model's stream for a request; fails the test when the adapter does not stream. */
export function streamOf(model: Model, request: ModelRequest): AsyncIterable<StreamEvent> {
  if (model.stream === undefined) throw new Error(`${model.provider} adapter has no stream()`);
  return model.stream(request);
}
