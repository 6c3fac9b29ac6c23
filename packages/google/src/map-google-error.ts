import { ApiError } from '@google/genai';
import type { GoogleGenerativeAIFetchError } from '@google/generative-ai';
import type { ProviderErrorCode } from '@toolcircuit/core';
import {
  abortedProviderError,
  invalidResponseError,
  isTransportFailure,
  ProviderError,
} from '@toolcircuit/core/provider';

const PROVIDER = 'google';

/** The `error` object of a Gemini error body: `{ code, message, status, details }` (google.rpc.Status). */
interface GoogleErrorBody {
  readonly code?: number;
  readonly message?: string;
  readonly status?: string;
  readonly details?: readonly unknown[];
}

/**
 * Turns whatever either SDK threw into a `ProviderError`.
 *
 * - `@google/genai` throws `ApiError { status, message }` whose message is the JSON error body (or, for
 *   an error chunk inside a stream, `got status: X. <json>`); we parse it back.
 * - `@google/generative-ai` throws `GoogleGenerativeAIFetchError { status, statusText, errorDetails }`;
 *   it keeps `details` (so RetryInfo) but drops the canonical `status` string, so `providerCode` is
 *   unknown on that SDK.
 * Neither SDK exposes response headers on its errors, so there is no request id; the retry delay comes
 * from `google.rpc.RetryInfo.retryDelay` in the body, which is where Gemini puts it.
 *
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */
export function mapGoogleError(error: unknown, signal: AbortSignal | undefined): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal?.aborted === true || isAbort(error)) {
    return abortedProviderError(PROVIDER, 'request', error);
  }
  if (error instanceof ApiError) {
    const body = parseGenaiMessage(error.message);
    return fromBody(body ?? { message: error.message }, error.status, error);
  }
  // The body of a 2xx answer was not JSON at all (an HTML page): both SDKs let JSON.parse's error through.
  if (error instanceof SyntaxError) return invalidResponseError(PROVIDER, {}, error);
  if (isLegacyError(error, 'GoogleGenerativeAIFetchError')) {
    const body: GoogleErrorBody = {
      message: legacyMessage(error.message),
      ...(error.errorDetails === undefined ? {} : { details: error.errorDetails }),
    };
    return fromBody(body, error.status, error);
  }
  if (isBrokenTransport(error)) {
    return new ProviderError({
      provider: PROVIDER,
      code: 'connection',
      message: `connection failed: ${messageOf(error)}`,
      retryable: true,
      cause: error,
    });
  }
  return new ProviderError({
    provider: PROVIDER,
    code: 'unknown',
    message: messageOf(error),
    retryable: false,
    cause: error,
  });
}

/** For an error object the SDK handed over as data (an SSE error chunk on the legacy SDK). */
export function mapGoogleErrorBody(error: unknown, cause: unknown): ProviderError {
  const body = isObject(error) ? (error as GoogleErrorBody) : { message: String(error) };
  return fromBody(body, typeof body.code === 'number' ? body.code : undefined, cause ?? error);
}

function fromBody(body: GoogleErrorBody, httpStatus: number | undefined, cause: unknown): ProviderError {
  const status = httpStatus ?? body.code;
  const code = classify(status, body);
  const label = [status, body.status].filter((part) => part !== undefined).join(' ');
  return new ProviderError({
    provider: PROVIDER,
    code,
    message: `${label}: ${body.message ?? 'unknown error'}`,
    status,
    retryable: code === 'rate_limited' || code === 'overloaded' || code === 'server_error',
    retryAfterMs: retryDelayMs(body.details),
    providerCode: body.status,
    cause,
  });
}

function classify(status: number | undefined, body: GoogleErrorBody): ProviderErrorCode {
  // Gemini answers an invalid key with 400 INVALID_ARGUMENT; only ErrorInfo.reason tells it apart.
  if (errorInfoReason(body.details) === 'API_KEY_INVALID' || status === 401 || body.status === 'UNAUTHENTICATED') {
    return 'authentication';
  }
  if (status === 403 || body.status === 'PERMISSION_DENIED') return 'permission';
  if (status === 404 || body.status === 'NOT_FOUND') return 'not_found';
  if (status === 429 || body.status === 'RESOURCE_EXHAUSTED') return 'rate_limited';
  // 529 is Anthropic's overloaded status, passed on by gateways that front several providers.
  if (status === 503 || status === 529 || body.status === 'UNAVAILABLE') return 'overloaded';
  if ((status !== undefined && status >= 500) || status === 408) return 'server_error';
  if (/input token count.*exceeds|exceeds the maximum number of tokens/i.test(body.message ?? '')) {
    return 'context_window_exceeded';
  }
  if (status !== undefined && status >= 400) return 'invalid_request';
  return 'unknown';
}

/** `google.rpc.RetryInfo.retryDelay` is a proto Duration in JSON form: `"34.4s"`. */
function retryDelayMs(details: readonly unknown[] | undefined): number | undefined {
  for (const detail of details ?? []) {
    if (!isObject(detail) || !String(detail['@type']).endsWith('google.rpc.RetryInfo')) continue;
    const match = /^(\d+(?:\.\d+)?)s$/.exec(String(detail['retryDelay']));
    if (match?.[1] !== undefined) return Math.round(Number(match[1]) * 1000);
  }
  return undefined;
}

function errorInfoReason(details: readonly unknown[] | undefined): string | undefined {
  for (const detail of details ?? []) {
    if (isObject(detail) && String(detail['@type']).endsWith('google.rpc.ErrorInfo')) {
      return typeof detail['reason'] === 'string' ? detail['reason'] : undefined;
    }
  }
  return undefined;
}

function parseGenaiMessage(message: string): GoogleErrorBody | undefined {
  const start = message.indexOf('{');
  if (start < 0) return undefined;
  try {
    const parsed: unknown = JSON.parse(message.slice(start));
    if (isObject(parsed) && isObject(parsed['error'])) return unwrapTextBody(parsed['error'] as GoogleErrorBody);
  } catch {
    // Not JSON after all: the caller keeps the raw message.
  }
  return undefined;
}

/**
 * A streamed request's error comes from the live API as JSON under `Content-Type: text/event-stream`;
 * `@google/genai` then wraps the whole text as `{ error: { message: <that JSON>, code, status: <HTTP status
 * text> } }`, so the real body (its canonical status, message, ErrorInfo, RetryInfo) is one level down.
 */
function unwrapTextBody(body: GoogleErrorBody): GoogleErrorBody {
  const text = body.message?.trim();
  if (text === undefined || !text.startsWith('{')) return body;
  try {
    const inner: unknown = JSON.parse(text);
    if (isObject(inner) && isObject(inner['error'])) return inner['error'] as GoogleErrorBody;
  } catch {
    // Plain text that happens to start with a brace: keep the wrapper.
  }
  return body;
}

/** `Error fetching from <url>: [429 Too Many Requests] <message> <details json>` → `<message>`. */
function legacyMessage(message: string): string {
  const afterStatus = message.replace(/^[^[]*\[[^\]]*\]\s*/, '');
  const details = afterStatus.indexOf(' [{');
  return details < 0 ? afterStatus : afterStatus.slice(0, details);
}

function isAbort(error: unknown): boolean {
  return (
    isLegacyError(error, 'GoogleGenerativeAIAbortError') || (error instanceof Error && error.name === 'AbortError')
  );
}

/**
 * Failures below HTTP: a refused or reset connection (`fetch failed`), a stream cut mid-event (genai:
 * "Incomplete JSON segment at the end"; legacy: "Failed to parse stream"), a timeout.
 */
function isBrokenTransport(error: unknown): boolean {
  if (
    isLegacyError(error, 'GoogleGenerativeAIRequestInputError') ||
    isLegacyError(error, 'GoogleGenerativeAIResponseError')
  ) {
    return false;
  }
  if (isLegacyError(error, 'GoogleGenerativeAIError')) return true;
  if (!(error instanceof Error)) return false;
  return (
    isTransportFailure(error) ||
    error instanceof TypeError ||
    error.name === 'TimeoutError' ||
    /Incomplete JSON segment|exception parsing stream chunk|terminated|ECONNRESET|socket/i.test(error.message)
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface LegacyErrors {
  readonly GoogleGenerativeAIError: Error;
  readonly GoogleGenerativeAIFetchError: GoogleGenerativeAIFetchError;
  readonly GoogleGenerativeAIAbortError: Error;
  readonly GoogleGenerativeAIRequestInputError: Error;
  readonly GoogleGenerativeAIResponseError: Error;
}

/**
 * `error instanceof <class of @google/generative-ai>`, by the class names along its prototype chain. The
 * archived SDK is an optional peer loaded only when asked for, and may be present twice (its CommonJS and
 * ESM entries are separate classes), so identity would miss errors from a client the application built.
 */
function isLegacyError<K extends keyof LegacyErrors>(error: unknown, name: K): error is LegacyErrors[K] {
  if (!(error instanceof Error)) return false;
  for (let proto: unknown = Object.getPrototypeOf(error); proto !== null && proto !== Error.prototype; ) {
    if ((proto as { constructor?: { name?: string } }).constructor?.name === name) return true;
    proto = Object.getPrototypeOf(proto);
  }
  return false;
}
