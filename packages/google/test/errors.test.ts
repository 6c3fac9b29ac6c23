import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderError } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { CASE_FILE_TOOLS, CASE_FILE_USER } from './support/case-files.js';
import {
  errorInteraction,
  generatePath,
  rawInteraction,
  SDKS,
  type Sdk,
  syntheticCassette,
} from './support/gemini-cassette.js';
import { modelFor, TEST_API_KEY, withReplay } from './support/replay.js';

const REQUEST = { messages: [CASE_FILE_USER], tools: CASE_FILE_TOOLS };

async function failure(sdk: Sdk, interaction: Parameters<typeof syntheticCassette>[1][number]) {
  const cassette = syntheticCassette('an error answer, shape from Gemini docs and recorded bodies', [interaction]);
  return withReplay(cassette, async (server) => {
    const error = await modelFor(sdk, server)
      .generate(REQUEST)
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    // Neither SDK retries by default (genai: no retryOptions on the client; legacy: never): one request.
    expect(server.received).toHaveLength(1);
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  });
}

describe.each(SDKS)('errors over %s', (sdk) => {
  // The legacy SDK does not surface the canonical status string, so `providerCode` is only known on genai.
  const providerCode = (code: string) => (sdk === 'genai' ? code : undefined);

  it('429 RESOURCE_EXHAUSTED with RetryInfo → rate_limited, retryable, retryAfterMs from retryDelay', async () => {
    const error = await failure(
      sdk,
      errorInteraction(429, {
        message: 'You exceeded your current quota, please check your plan.',
        status: 'RESOURCE_EXHAUSTED',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
            violations: [{ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' }],
          },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3s' },
        ],
      }),
    );
    expect(error).toMatchObject({
      provider: 'google',
      code: 'rate_limited',
      status: 429,
      retryable: true,
      retryAfterMs: 3000,
      providerCode: providerCode('RESOURCE_EXHAUSTED'),
      requestId: undefined,
    });
    expect(error.message).toContain('You exceeded your current quota');
  });

  it('reads a fractional retryDelay ("34.4s")', async () => {
    const error = await failure(
      sdk,
      errorInteraction(429, {
        message: 'Quota exceeded.',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' }],
      }),
    );
    expect(error.retryAfterMs).toBe(34_400);
  });

  it('503 UNAVAILABLE → overloaded, retryable', async () => {
    const error = await failure(
      sdk,
      errorInteraction(503, { message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' }),
    );
    expect(error).toMatchObject({ code: 'overloaded', status: 503, retryable: true, retryAfterMs: undefined });
    expect(error.providerCode).toBe(providerCode('UNAVAILABLE'));
  });

  it('500 INTERNAL → server_error, retryable', async () => {
    const error = await failure(
      sdk,
      errorInteraction(500, { message: 'An internal error has occurred.', status: 'INTERNAL' }),
    );
    expect(error).toMatchObject({ code: 'server_error', status: 500, retryable: true });
  });

  it('400 INVALID_ARGUMENT → invalid_request, not retryable, with the field violation in the message', async () => {
    const error = await failure(
      sdk,
      errorInteraction(400, {
        message:
          'Invalid JSON payload received. Unknown name "additionalProperties" at \'tools[0].function_declarations[0].parameters\': Cannot find field.',
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.BadRequest',
            fieldViolations: [{ field: 'tools[0].function_declarations[0].parameters' }],
          },
        ],
      }),
    );
    expect(error).toMatchObject({ code: 'invalid_request', status: 400, retryable: false });
    expect(error.providerCode).toBe(providerCode('INVALID_ARGUMENT'));
    expect(error.message).toContain('Unknown name "additionalProperties"');
  });

  it('400 with ErrorInfo API_KEY_INVALID → authentication, and the key is never in the message', async () => {
    const error = await failure(
      sdk,
      errorInteraction(400, {
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
        ],
      }),
    );
    expect(error).toMatchObject({ code: 'authentication', status: 400, retryable: false });
    expect(error.message).not.toContain(TEST_API_KEY);
  });

  it('401 UNAUTHENTICATED → authentication; 403 → permission; 404 → not_found', async () => {
    const unauthenticated = await failure(
      sdk,
      errorInteraction(401, { message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' }),
    );
    expect(unauthenticated).toMatchObject({ code: 'authentication', status: 401, retryable: false });
    const denied = await failure(
      sdk,
      errorInteraction(403, { message: 'Permission denied.', status: 'PERMISSION_DENIED' }),
    );
    expect(denied).toMatchObject({ code: 'permission', status: 403, retryable: false });
    const missing = await failure(
      sdk,
      errorInteraction(404, { message: 'models/x is not found.', status: 'NOT_FOUND' }),
    );
    expect(missing).toMatchObject({ code: 'not_found', status: 404, retryable: false });
  });

  it('400 for a prompt over the context window → context_window_exceeded', async () => {
    const error = await failure(
      sdk,
      errorInteraction(400, {
        message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
        status: 'INVALID_ARGUMENT',
      }),
    );
    expect(error).toMatchObject({ code: 'context_window_exceeded', retryable: false });
  });

  it('a 502 with an HTML body (a proxy, not Gemini) → server_error, retryable', async () => {
    const error = await failure(
      sdk,
      rawInteraction(generatePath(), { status: 502, contentType: 'text/html', text: '<html>Bad Gateway</html>' }),
    );
    expect(error).toMatchObject({ code: 'server_error', status: 502, retryable: true });
  });

  it('a refused connection → connection, retryable', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await modelFor(sdk, { url: `http://127.0.0.1:${port}` })
      .generate(REQUEST)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'connection', retryable: true, status: undefined });
  });
});

describe.each(SDKS)('abort over %s', (sdk) => {
  it('passes the signal to the SDK: aborting a request in flight rejects with code aborted', async () => {
    let received = 0;
    // Never answers: only the abort can end the call.
    const server = createServer(() => {
      received += 1;
      controller.abort();
    });
    const controller = new AbortController();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const error = await modelFor(sdk, { url: `http://127.0.0.1:${port}` })
        .generate({ ...REQUEST, signal: controller.signal })
        .catch((caught: unknown) => caught);
      expect(received).toBe(1);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: 'aborted', retryable: false });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('an already aborted signal sends nothing', async () => {
    const cassette = syntheticCassette('never served: the signal is aborted before the call', [
      errorInteraction(500, { message: 'unused', status: 'INTERNAL' }),
    ]);
    await withReplay(cassette, async (server) => {
      const error = await modelFor(sdk, server)
        .generate({ ...REQUEST, signal: AbortSignal.abort() })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'aborted' });
      expect(server.received).toHaveLength(0);
    });
  });
});
