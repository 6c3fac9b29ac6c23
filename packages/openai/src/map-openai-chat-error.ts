import type { ToolcircuitError } from '@toolcircuit/core';
import { mapOpenAIError } from './openai-shared-map-error.js';

/**
 * SDK errors from a Chat Completions call → {@link ProviderError}: status and `{error: {type, code}}` give the
 * code, `retry-after-ms` / `retry-after` the delay, `x-request-id` the request id. An error object inside a
 * stream (`data: {"error": …}`) arrives as an SDK error without status and is mapped by its `code`/`type`.
 *
 * @see https://platform.openai.com/docs/guides/error-codes/api-errors
 */
export function mapOpenAIChatError(error: unknown, provider: string): ToolcircuitError {
  return mapOpenAIError(error, provider);
}
