import type { ProviderError, ToolcircuitError } from '@toolcircuit/core';
import type { ResponseErrorEvent, ResponseFailedEvent } from 'openai/resources/responses/responses';
import { mapOpenAIError, providerErrorFromFields } from './openai-shared-map-error.js';

/**
 * SDK errors from a Responses call → {@link ProviderError} (status, `{error: {type, code}}`, retry headers,
 * request id). An in-stream `{"type": "error"}` event is raised by the SDK as an error without status and
 * is mapped by its `code`/`type`, so `insufficient_quota` stays non-retryable there too.
 *
 * @see https://platform.openai.com/docs/guides/error-codes/api-errors
 */
export function mapOpenAIResponsesError(error: unknown, provider: string): ToolcircuitError {
  return mapOpenAIError(error, provider);
}

/** `response.failed` (or an `error` event the SDK let through) → the error the stream ends with. */
export function mapOpenAIResponsesStreamFailure(
  event: ResponseFailedEvent | ResponseErrorEvent,
  provider: string,
): ProviderError {
  if (event.type === 'error') {
    return providerErrorFromFields({ message: event.message, code: event.code }, provider, event);
  }
  const error = event.response.error;
  return providerErrorFromFields(error ?? { message: `response ${event.response.id} failed` }, provider, event);
}
