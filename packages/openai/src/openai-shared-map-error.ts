import type { ProviderErrorCode } from '@toolcircuit/core';
import {
  abortedProviderError,
  invalidResponseError,
  isTransportFailure,
  ProviderError,
  retryAfterMs,
  ToolcircuitError,
} from '@toolcircuit/core/provider';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';

/**
 * Translates anything the openai SDK throws into a {@link ProviderError}. Errors toolcircuit raised itself
 * (configuration errors) pass through unchanged.
 *
 * `retryable` follows the HTTP status the way the SDK's own retry logic does (408, 409, 429, 5xx,
 * connection failures), lets an explicit `x-should-retry` header win, and is always false for
 * `insufficient_quota`: OpenAI answers it with a 429 like a rate limit, but waiting never helps.
 *
 * @see https://platform.openai.com/docs/guides/error-codes/api-errors
 */
export function mapOpenAIError(error: unknown, provider: string): ToolcircuitError {
  if (error instanceof ToolcircuitError) return error;
  if (error instanceof APIUserAbortError) {
    return abortedProviderError(provider, 'request', error);
  }
  if (error instanceof APIConnectionTimeoutError || error instanceof APIConnectionError) {
    return new ProviderError({ provider, code: 'connection', message: error.message, retryable: true, cause: error });
  }
  if (error instanceof APIError) return fromApiError(error, provider);
  if (isAbortError(error)) {
    return abortedProviderError(provider, 'request', error);
  }
  // The SDK parses a 2xx body labelled JSON with `response.json()`: a body that is not JSON (empty, or a
  // broken gateway's) throws the parser's SyntaxError, which is the answer being wrong, not an unknown.
  if (error instanceof SyntaxError) return invalidResponseError(provider, {}, error);
  // A body cut before its end surfaces as fetch's own error, which the SDK lets through unwrapped.
  if (isTransportFailure(error)) {
    const detail = error instanceof Error ? error.message : String(error);
    return new ProviderError({
      provider,
      code: 'connection',
      message: `connection lost: ${detail}`,
      retryable: true,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError({ provider, code: 'unknown', message, retryable: false, cause: error });
}

/** Fields of an OpenAI error object (`{error: {message, type, param, code}}`), as data rather than an SDK class. */
export interface OpenAIErrorFields {
  readonly message: string;
  readonly type?: string | null | undefined;
  readonly code?: string | null | undefined;
}

/**
 * An error the API reported inside a 200 stream (`{"type":"error"}` or `response.failed`): there is no HTTP
 * status, so the code comes from the error's own `code`/`type`.
 */
export function providerErrorFromFields(fields: OpenAIErrorFields, provider: string, cause?: unknown): ProviderError {
  const providerCode = fields.code ?? fields.type ?? undefined;
  const code = codeFromProviderCode(providerCode);
  return new ProviderError({
    provider,
    code,
    message: fields.message,
    retryable: providerCode !== QUOTA && RETRYABLE_CODES.has(code),
    providerCode,
    cause,
  });
}

const QUOTA = 'insufficient_quota';
const RETRYABLE_CODES: ReadonlySet<ProviderErrorCode> = new Set([
  'rate_limited',
  'overloaded',
  'server_error',
  'connection',
]);

function fromApiError(error: APIError, provider: string): ProviderError {
  const providerCode = stringOrUndefined(error.code) ?? stringOrUndefined(error.type);
  const status = error.status;
  const headers = error.headers;
  if (status === undefined) {
    // Raised by the SDK's stream reader for an error event inside a 200 stream.
    return providerErrorFromFields(
      { message: error.message, code: stringOrUndefined(error.code), type: stringOrUndefined(error.type) },
      provider,
      error,
    );
  }
  const code = codeFromStatus(status, providerCode);
  const shouldRetry = headers?.get('x-should-retry');
  const retryable =
    providerCode === QUOTA
      ? false
      : shouldRetry === 'true'
        ? true
        : shouldRetry === 'false'
          ? false
          : retryableStatus(status);
  return new ProviderError({
    provider,
    code,
    message: error.message,
    status,
    retryable,
    retryAfterMs: headers === undefined ? undefined : retryAfterMs(headers),
    providerCode,
    requestId: stringOrUndefined(error.requestID),
    cause: error,
  });
}

function codeFromStatus(status: number, providerCode: string | undefined): ProviderErrorCode {
  if (providerCode === 'context_length_exceeded') return 'context_window_exceeded';
  if (status === 400 || status === 422) return 'invalid_request';
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 408) return 'connection';
  if (status === 429) return 'rate_limited';
  // 529 is Anthropic's overloaded status; OpenAI-compatible gateways in front of it pass it on.
  if (status === 503 || status === 529) return 'overloaded';
  if (status >= 500) return 'server_error';
  return 'unknown';
}

function codeFromProviderCode(providerCode: string | undefined): ProviderErrorCode {
  switch (providerCode) {
    case 'insufficient_quota':
    case 'rate_limit_exceeded':
    case 'rate_limit_error':
      return 'rate_limited';
    case 'context_length_exceeded':
      return 'context_window_exceeded';
    case 'server_error':
    case 'internal_error':
      return 'server_error';
    case 'server_is_overloaded':
    case 'slow_down':
      return 'overloaded';
    case 'invalid_request_error':
    case 'invalid_prompt':
    case 'invalid_function_parameters':
    case 'invalid_json_schema':
      return 'invalid_request';
    default:
      return 'unknown';
  }
}

function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function stringOrUndefined(value: string | null | undefined): string | undefined {
  return value === null || value === undefined || value === '' ? undefined : value;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
