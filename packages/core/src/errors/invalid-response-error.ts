import { ProviderError } from './provider-error.js';

/** What arrived instead of the API's response, as far as the SDK let the adapter see it. */
export interface InvalidResponseReceived {
  readonly contentType?: string | null | undefined;
  /** The body as the SDK handed it over (a string when it was not JSON), or the text it failed to parse. */
  readonly body?: unknown;
}

const PREVIEW_LENGTH = 60;

/**
 * For adapters: a 2xx answer whose body is not the API's response (an HTML sign-in page from a proxy, a
 * base URL that points at a web site). Not retryable: the same request reaches the same wrong place.
 */
export function invalidResponseError(
  provider: string,
  received: InvalidResponseReceived,
  cause?: unknown,
): ProviderError {
  const parts: string[] = [];
  if (received.contentType !== undefined && received.contentType !== null) {
    parts.push(`content-type ${received.contentType}`);
  }
  if (typeof received.body === 'string') {
    const preview = received.body.trim().slice(0, PREVIEW_LENGTH);
    parts.push(preview === '' ? 'an empty body' : `a body beginning ${JSON.stringify(preview)}`);
  } else if (received.body !== undefined) {
    parts.push(`a ${received.body === null ? 'null' : typeof received.body} body without the API's fields`);
  }
  const detail = parts.length === 0 ? '' : ` (${parts.join(', ')})`;
  return new ProviderError({
    provider,
    code: 'invalid_response',
    message: `the answer is not the API's response${detail}; check the base URL and any proxy in between`,
    retryable: false,
    ...(cause === undefined ? {} : { cause }),
  });
}
