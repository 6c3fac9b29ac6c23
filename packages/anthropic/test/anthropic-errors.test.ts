import { ProviderError } from '@toolcircuit/core';
import { startReplayServer } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../src/index.js';
import { json, MODEL_ID, message, replay, syntheticCassette } from './replay.js';
import { CASE_FILE_TOOLS } from './scenario.js';

const REQUEST = { messages: [{ role: 'user' as const, content: 'go' }], tools: CASE_FILE_TOOLS };

function errorBody(type: string, text: string): Record<string, unknown> & { type: string } {
  return { type: 'error', error: { type, message: text }, request_id: `req_${type}` };
}

async function failure(status: number, type: string, text: string, headers: Record<string, string> = {}) {
  const { model } = await replay(
    syntheticCassette(`HTTP ${status} ${type}, body shaped like the recorded Anthropic errors`, [
      json(errorBody(type, text) as never, status, headers),
    ]),
  );
  const error = await model.generate(REQUEST).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('provider errors through the SDK (maxRetries 0)', () => {
  it.each([
    [400, 'invalid_request_error', 'invalid_request', false],
    [401, 'authentication_error', 'authentication', false],
    [403, 'permission_error', 'permission', false],
    [404, 'not_found_error', 'not_found', false],
    [413, 'request_too_large', 'invalid_request', false],
    [429, 'rate_limit_error', 'rate_limited', true],
    [500, 'api_error', 'server_error', true],
    [529, 'overloaded_error', 'overloaded', true],
  ] as const)('%i %s → %s (retryable %s)', async (status, type, code, retryable) => {
    const error = await failure(status, type, `something about ${type}`);
    expect(error).toMatchObject({
      kind: 'provider',
      provider: 'anthropic',
      code,
      status,
      retryable,
      providerCode: type,
      requestId: `req_${type}`,
      retryAfterMs: undefined,
    });
    expect(error.message).toContain(`something about ${type}`);
  });

  it('429 carries retry-after (seconds) and the request-id header wins over the body', async () => {
    const error = await failure(429, 'rate_limit_error', 'slow down', {
      'retry-after': '30',
      'x-should-retry': 'true',
      'request-id': 'req_from_header',
    });
    expect(error).toMatchObject({
      code: 'rate_limited',
      retryable: true,
      retryAfterMs: 30_000,
      requestId: 'req_from_header',
    });
  });

  it('retry-after-ms is preferred to retry-after', async () => {
    const error = await failure(429, 'rate_limit_error', 'slow down', {
      'retry-after-ms': '1500',
      'retry-after': '30',
    });
    expect(error.retryAfterMs).toBe(1500);
  });

  it('x-should-retry: false makes a 5xx non-retryable; x-should-retry: true makes a 400 retryable', async () => {
    expect((await failure(500, 'api_error', 'boom', { 'x-should-retry': 'false' })).retryable).toBe(false);
    expect((await failure(400, 'invalid_request_error', 'odd', { 'x-should-retry': 'true' })).retryable).toBe(true);
  });

  it('a too-long prompt is context_window_exceeded, not a generic invalid request', async () => {
    const error = await failure(400, 'invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum');
    expect(error).toMatchObject({ code: 'context_window_exceeded', retryable: false, status: 400 });
  });

  it("the SDK's own retries honour retry-after-ms: with maxRetries 1 a 429 then a 200 succeeds", async () => {
    const { model, server } = await replay(
      syntheticCassette('429 then success, to show the SDK retries by itself', [
        json(errorBody('rate_limit_error', 'slow down') as never, 429, { 'retry-after-ms': '5' }),
        json(message([{ type: 'text', text: 'ok' }], 'end_turn')),
      ]),
      { maxRetries: 1 },
    );
    const turn = await model.generate(REQUEST);
    expect(turn.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server.received).toHaveLength(2);
    expect(server.received[1]?.headers['x-stainless-retry-count']).toBe('1');
  });
});

describe('abort', () => {
  it('an aborted signal reaches the SDK: nothing is sent and the error is code aborted', async () => {
    const { model, server } = await replay(syntheticCassette('never served', [json(message([], 'end_turn'))]));
    const controller = new AbortController();
    controller.abort();
    await expect(model.generate({ ...REQUEST, signal: controller.signal })).rejects.toMatchObject({
      kind: 'provider',
      code: 'aborted',
      retryable: false,
    });
    expect(server.received).toHaveLength(0);
  });

  it('a connection refused is code connection, retryable', async () => {
    const server = await startReplayServer(syntheticCassette('closed before use', []));
    await server.close();
    const model = createAnthropicModel({ model: MODEL_ID, apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    await expect(model.generate(REQUEST)).rejects.toMatchObject({ code: 'connection', retryable: true });
  });
});
