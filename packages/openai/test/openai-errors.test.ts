import { ProviderError } from '@toolcircuit/core';
import type { Interaction } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAIChatModel, createOpenAIResponsesModel, OpenAIConfigurationError } from '../src/index.js';
import {
  CHAT_PATH,
  chatCompletion,
  jsonInteraction,
  openAIError,
  RESPONSES_PATH,
  syntheticCassette,
} from './support/cassettes.js';
import { closedBaseURL, rejectionOf, withChatReplay, withResponsesReplay } from './support/replay.js';
import { CASE_FILE_TOOLS } from './support/scenario.js';

const ask = { messages: [{ role: 'user' as const, content: 'Go' }], tools: CASE_FILE_TOOLS };

const quota = openAIError(
  'You exceeded your current quota, please check your plan and billing details.',
  'insufficient_quota',
  'insufficient_quota',
);

interface ErrorCase {
  readonly title: string;
  readonly status: number;
  readonly body: ReturnType<typeof openAIError>;
  readonly headers?: Record<string, string>;
  readonly expected: Partial<ProviderError>;
}

// Bodies: shapes recorded in fixtures/recorded (openai-error.1.json, o1-mini 400) and quoted in issue threads.
const cases: ErrorCase[] = [
  {
    title: '400 invalid_function_parameters',
    status: 400,
    body: openAIError(
      "Invalid schema for function 'lister_dossiers': In context=(), object schema missing properties.",
      'invalid_request_error',
      'invalid_function_parameters',
      'tools[1].function.parameters',
    ),
    headers: { 'x-request-id': 'req_400' },
    expected: {
      code: 'invalid_request',
      status: 400,
      retryable: false,
      providerCode: 'invalid_function_parameters',
      requestId: 'req_400',
    },
  },
  {
    title: '400 context_length_exceeded',
    status: 400,
    body: openAIError(
      'This model’s maximum context length is 128000 tokens.',
      'invalid_request_error',
      'context_length_exceeded',
    ),
    expected: { code: 'context_window_exceeded', retryable: false },
  },
  {
    title: '401 invalid key',
    status: 401,
    body: openAIError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'),
    expected: { code: 'authentication', status: 401, retryable: false, providerCode: 'invalid_api_key' },
  },
  {
    title: '429 rate limit with retry-after (seconds)',
    status: 429,
    body: openAIError('Rate limit reached for gpt-4o.', 'requests', 'rate_limit_exceeded'),
    headers: { 'retry-after': '7' },
    expected: {
      code: 'rate_limited',
      status: 429,
      retryable: true,
      retryAfterMs: 7000,
      providerCode: 'rate_limit_exceeded',
    },
  },
  {
    title: '429 rate limit: retry-after-ms wins over retry-after',
    status: 429,
    body: openAIError('Rate limit reached for gpt-4o.', 'requests', 'rate_limit_exceeded'),
    headers: { 'retry-after': '7', 'retry-after-ms': '1250' },
    expected: { code: 'rate_limited', retryable: true, retryAfterMs: 1250 },
  },
  {
    title: '429 insufficient_quota is not retryable',
    status: 429,
    body: quota,
    expected: { code: 'rate_limited', status: 429, retryable: false, providerCode: 'insufficient_quota' },
  },
  {
    title: '500 server error',
    status: 500,
    body: openAIError('The server had an error while processing your request.', 'server_error', null),
    expected: { code: 'server_error', status: 500, retryable: true, providerCode: 'server_error' },
  },
  {
    title: '503 overloaded',
    status: 503,
    body: openAIError('The engine is currently overloaded, please try again later.', 'server_error', null),
    expected: { code: 'overloaded', status: 503, retryable: true },
  },
  {
    title: '500 with x-should-retry: false',
    status: 500,
    body: openAIError('Something went wrong.', 'server_error', null),
    headers: { 'x-should-retry': 'false' },
    expected: { code: 'server_error', retryable: false },
  },
];

const errorInteraction = (path: string, c: ErrorCase): Interaction =>
  jsonInteraction(path, c.body, c.status, c.headers);

describe('provider errors through the SDK', () => {
  it.each(cases)('chat: $title', async (c) => {
    const cassette = syntheticCassette('openai-chat', `error ${c.title}`, [errorInteraction(CHAT_PATH, c)]);
    const error = await withChatReplay(cassette, (model) => rejectionOf(model.generate(ask)));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'provider', provider: 'openai', ...c.expected });
  });

  it.each(cases)('responses: $title', async (c) => {
    const cassette = syntheticCassette('openai-responses', `error ${c.title}`, [errorInteraction(RESPONSES_PATH, c)]);
    const error = await withResponsesReplay(cassette, (model) => rejectionOf(model.generate(ask)));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'provider', provider: 'openai', ...c.expected });
  });

  it('with SDK retries on, the SDK itself retries a 429 after retry-after-ms and the call succeeds', async () => {
    const cassette = syntheticCassette('openai-chat', '429 then 200, to show the SDK retry', [
      jsonInteraction(CHAT_PATH, openAIError('Rate limit reached.', 'requests', 'rate_limit_exceeded'), 429, {
        'retry-after-ms': '0',
      }),
      jsonInteraction(CHAT_PATH, chatCompletion({ content: 'done' })),
    ]);
    await withChatReplay(
      cassette,
      async (model, server) => {
        const turn = await model.generate(ask);
        expect(turn.content).toEqual([{ type: 'text', text: 'done' }]);
        expect(server.received).toHaveLength(2);
      },
      { maxRetries: 1 },
    );
  });

  it('honest note: the SDK also retries a 429 insufficient_quota (it only looks at the status); ours still says not retryable', async () => {
    const cassette = syntheticCassette('openai-chat', 'two 429 insufficient_quota answers', [
      jsonInteraction(CHAT_PATH, quota, 429, { 'retry-after-ms': '0' }),
      jsonInteraction(CHAT_PATH, quota, 429, { 'retry-after-ms': '0' }),
    ]);
    await withChatReplay(
      cassette,
      async (model, server) => {
        const error = await rejectionOf(model.generate(ask));
        expect(server.received).toHaveLength(2);
        expect(error).toMatchObject({ code: 'rate_limited', retryable: false, providerCode: 'insufficient_quota' });
      },
      { maxRetries: 1 },
    );
  });

  it('passes the abort signal to the SDK: an aborted call sends nothing and fails as aborted', async () => {
    const cassette = syntheticCassette('openai-chat', 'never served: the call is aborted first', [
      jsonInteraction(CHAT_PATH, chatCompletion({ content: 'unused' })),
    ]);
    await withChatReplay(cassette, async (model, server) => {
      const controller = new AbortController();
      controller.abort();
      const error = await rejectionOf(model.generate({ ...ask, signal: controller.signal }));
      expect(error).toMatchObject({ kind: 'provider', code: 'aborted', retryable: false });
      expect(server.received).toHaveLength(0);
    });
  });

  it('a connection failure is a retryable connection error', async () => {
    const model = createOpenAIChatModel({
      model: 'gpt-4o',
      apiKey: 'sk-test',
      baseURL: await closedBaseURL(),
      maxRetries: 0,
    });
    const error = await rejectionOf(model.generate(ask));
    expect(error).toMatchObject({ kind: 'provider', code: 'connection', retryable: true });
  });
});

describe('configuration errors at build time', () => {
  it.each([
    ['chat', createOpenAIChatModel],
    ['responses', createOpenAIResponsesModel],
  ] as const)('%s: a missing key names OPENAI_API_KEY and fails when the model is built', (_name, create) => {
    let error: unknown;
    try {
      create({ model: 'gpt-4o', env: {} });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(OpenAIConfigurationError);
    expect(error).toMatchObject({ kind: 'configuration', code: 'missing_api_key', field: 'OPENAI_API_KEY' });
    expect((error as Error).message).toContain('OPENAI_API_KEY');
  });

  it('reads the key from the named variable and never puts it in an error message', async () => {
    const secret = 'sk-live-very-secret-value-0123456789';
    const model = createOpenAIChatModel({
      model: 'gpt-4o',
      apiKeyEnv: 'GROQ_API_KEY',
      env: { GROQ_API_KEY: secret },
      baseURL: await closedBaseURL(),
      maxRetries: 0,
    });
    const error = await rejectionOf(model.generate(ask));
    expect(String((error as Error).message)).not.toContain(secret);
    expect(() => createOpenAIChatModel({ model: 'gpt-4o', apiKeyEnv: 'GROQ_API_KEY', env: {} })).toThrow(
      /GROQ_API_KEY/,
    );
  });

  it('rejects an empty model id', () => {
    expect(() => createOpenAIChatModel({ model: ' ', apiKey: 'sk-test' })).toThrow(OpenAIConfigurationError);
  });
});
