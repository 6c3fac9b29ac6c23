import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { ProviderErrorCode } from '@toolcircuit/core';
import {
  abortedProviderError,
  invalidResponseError,
  isTransportFailure,
  ProviderError,
  retryAfterMs,
} from '@toolcircuit/core/provider';

const PROVIDER = 'anthropic';

const CODE_BY_STATUS: Readonly<Record<number, ProviderErrorCode>> = {
  400: 'invalid_request',
  401: 'authentication',
  403: 'permission',
  404: 'not_found',
  413: 'invalid_request',
  429: 'rate_limited',
  // The status decides, whatever the body says: a load balancer's 503 carries no `overloaded_error`.
  503: 'overloaded',
  529: 'overloaded',
};

// Error events inside a 200 stream carry no status, only the body's `error.type`.
const CODE_BY_TYPE: Readonly<Record<string, ProviderErrorCode>> = {
  invalid_request_error: 'invalid_request',
  authentication_error: 'authentication',
  permission_error: 'permission',
  not_found_error: 'not_found',
  request_too_large: 'invalid_request',
  rate_limit_error: 'rate_limited',
  api_error: 'server_error',
  overloaded_error: 'overloaded',
  timeout_error: 'server_error',
};

const RETRYABLE_CODES: ReadonlySet<ProviderErrorCode> = new Set([
  'rate_limited',
  'overloaded',
  'server_error',
  'connection',
]);

// Anthropic reports an over-long prompt as a plain 400; callers need to tell it apart from a bad request.
const CONTEXT_WINDOW = /prompt is too long|exceeds? (the )?context (limit|window)|context window/i;

/**
 * Translates what the Anthropic SDK throws into a {@link ProviderError}.
 * `retryable` follows the API's `x-should-retry` header when present (the SDK's own rule), else the status;
 * `retryAfterMs` comes from `retry-after-ms`, then `retry-after` (seconds or HTTP date).
 *
 * @see https://docs.claude.com/en/api/errors
 */
export function mapAnthropicError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof APIUserAbortError || isAbortError(error)) {
    return abortedProviderError(PROVIDER, 'request', error);
  }
  if (error instanceof APIConnectionError) {
    const timedOut = error instanceof APIConnectionTimeoutError;
    return new ProviderError({
      provider: PROVIDER,
      code: 'connection',
      message: timedOut ? 'request timed out' : `connection failed: ${error.message}`,
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof APIError) return fromApiError(error);
  // The SDK parses a 2xx body labelled JSON with `response.json()`: a body that is not JSON (empty, or a
  // broken gateway's) throws the parser's SyntaxError, which is the answer being wrong, not an unknown.
  if (error instanceof SyntaxError) return invalidResponseError(PROVIDER, {}, error);
  // A body cut before its end surfaces as fetch's own error, which the SDK lets through unwrapped.
  if (isTransportFailure(error)) {
    return new ProviderError({
      provider: PROVIDER,
      code: 'connection',
      message: `connection lost: ${error instanceof Error ? error.message : String(error)}`,
      retryable: true,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError({ provider: PROVIDER, code: 'unknown', message, retryable: false, cause: error });
}

function fromApiError(error: APIError): ProviderError {
  const body = asRecord(error.error);
  const bodyError = asRecord(body?.['error']);
  const providerCode = error.type ?? stringOr(bodyError?.['type']);
  const apiMessage = error.apiMessage ?? stringOr(bodyError?.['message']) ?? error.message;
  const status = error.status;
  let code: ProviderErrorCode =
    (status === undefined ? undefined : CODE_BY_STATUS[status]) ??
    (providerCode === undefined ? undefined : CODE_BY_TYPE[providerCode]) ??
    (status !== undefined && status >= 500 ? 'server_error' : 'unknown');
  if (code === 'invalid_request' && CONTEXT_WINDOW.test(apiMessage)) code = 'context_window_exceeded';
  const headers = error.headers;
  const shouldRetry = headers?.get('x-should-retry');
  const retryable = shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : RETRYABLE_CODES.has(code);
  return new ProviderError({
    provider: PROVIDER,
    code,
    message: `${status ?? 'stream'} ${providerCode ?? 'error'}: ${apiMessage}`,
    status,
    retryable,
    retryAfterMs: headers === undefined ? undefined : retryAfterMs(headers),
    providerCode,
    requestId: error.requestID ?? stringOr(body?.['request_id']),
    cause: error,
  });
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
