import { abortedProviderError, ProviderError, type ToolcircuitError } from '@toolcircuit/core';
import { mapOpenAIError } from './openai-shared-map-error.js';

/**
 * The error a stream ends with when it stopped before the provider finished the turn: the body ended
 * without the final marker (Chat: no `finish_reason`; Responses: no `response.completed` /
 * `response.incomplete`; the SDK drops a half-received event without throwing), or the connection was lost
 * while reading. The turn never completed, so no turn is reported (the Gemini adapter's rule, whose SDKs
 * throw here). Retryable: nothing ran, and the same request can give a whole turn. A turn the provider
 * finished but truncated (`length`, `max_output_tokens`) is a `turn-end` with incomplete calls instead.
 */
export function streamInterruptedError(
  provider: string,
  reason: string,
  incompleteCalls: number,
  cause?: unknown,
): ProviderError {
  return new ProviderError({
    provider,
    code: 'connection',
    message: `the stream ended before the provider finished the turn (${reason}); ${describeIncompleteCalls(incompleteCalls)}`,
    retryable: true,
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * An error thrown while reading an open stream. The SDK's own errors keep their mapping (an error event in
 * the stream, an abort); anything else (undici's `TypeError: terminated`, a socket reset) is the
 * connection lost mid-turn, which the SDK does not wrap.
 */
export function mapOpenAIStreamReadError(
  error: unknown,
  provider: string,
  incompleteCalls: number,
  signal: AbortSignal | undefined,
): ToolcircuitError {
  const mapped = mapOpenAIError(error, provider);
  if (!(mapped instanceof ProviderError) || mapped.code !== 'unknown') return mapped;
  if (signal?.aborted === true) {
    return abortedProviderError(provider, 'stream', error);
  }
  const detail = error instanceof Error ? error.message : String(error);
  return streamInterruptedError(provider, `connection lost: ${detail}`, incompleteCalls, error);
}

function describeIncompleteCalls(count: number): string {
  if (count === 0) return 'no tool call was left incomplete';
  return count === 1
    ? '1 tool call was left incomplete and was not run'
    : `${count} tool calls were left incomplete and were not run`;
}
