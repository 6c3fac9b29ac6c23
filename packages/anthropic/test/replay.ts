// Shared test helpers: synthetic cassettes for the Messages API, served by the real replay server.
import type { JsonValue, Model } from '@toolcircuit/core';
import { type Cassette, type RecordedResponse, type ReplayServer, startReplayServer } from '@toolcircuit/testing';
import { afterEach } from 'vitest';
import { createAnthropicModel } from '../src/index.js';

export const MODEL_ID = 'claude-sonnet-4-6';

const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

export function syntheticCassette(note: string, responses: readonly RecordedResponse[]): Cassette {
  return {
    format: 'toolcircuit-cassette/1',
    protocol: 'anthropic-messages',
    provenance: { kind: 'synthetic', note },
    model: MODEL_ID,
    interactions: responses.map((response) => ({ request: { method: 'POST', path: '/v1/messages' }, response })),
  };
}

export function json(body: JsonValue, status = 200, headers: Record<string, string> = {}): RecordedResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: { kind: 'json', json: body } };
}

/** An SSE body whose `event:` names are each payload's `type`, as the API sends them. */
export function sse(events: readonly JsonValue[]): RecordedResponse {
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    body: {
      kind: 'sse',
      events: events.map((data) => ({ event: eventName(data), data: JSON.stringify(data) })),
    },
  };
}

function eventName(data: JsonValue): string {
  if (typeof data === 'object' && data !== null && !Array.isArray(data) && typeof data['type'] === 'string') {
    return data['type'];
  }
  return 'message';
}

/** A Messages API response body. */
export function message(
  content: JsonValue[],
  stopReason: string | null,
  extra: Record<string, JsonValue> = {},
): JsonValue {
  return {
    id: 'msg_synthetic',
    type: 'message',
    role: 'assistant',
    model: MODEL_ID,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    ...extra,
  };
}

export async function replay(
  cassette: Cassette,
  options: { maxRetries?: number; model?: string; maxTokens?: number } = {},
): Promise<{ model: Model; server: ReplayServer }> {
  const server = await startReplayServer(cassette);
  servers.push(server);
  const model = createAnthropicModel({
    model: options.model ?? cassette.model ?? MODEL_ID,
    apiKey: 'test-key-not-secret',
    baseURL: server.url,
    // Tests see each response once; a retry would consume the next interaction and hide the error.
    maxRetries: options.maxRetries ?? 0,
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
  });
  return { model, server };
}
