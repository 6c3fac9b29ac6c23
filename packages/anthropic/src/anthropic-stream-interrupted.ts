import { ProviderError } from '@toolcircuit/core';
import { mapAnthropicError } from './map-anthropic-error.js';

// Not ANTHROPIC_PROVIDER: importing the model file from here would close an import cycle.
const PROVIDER = 'anthropic';

/**
 * The error a stream ends with when it stopped before the provider finished the turn: the body ended with
 * no stop reason and no `message_stop` (the SDK drops a half-received event without throwing), or the
 * connection was lost while reading. The turn never completed, so no turn is reported (the Gemini
 * adapter's rule, whose SDKs throw here). Retryable: nothing ran, and the same request can give a whole
 * turn. A turn the provider finished but truncated (`max_tokens`) is a `turn-end` with incomplete calls.
 */
export function anthropicStreamInterruptedError(
  reason: string,
  incompleteCalls: number,
  cause?: unknown,
): ProviderError {
  return new ProviderError({
    provider: PROVIDER,
    code: 'connection',
    message: `the stream ended before the provider finished the turn (${reason}); ${describeIncompleteCalls(incompleteCalls)}`,
    retryable: true,
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * An error thrown while reading an open stream. The SDK raises an APIError for an SSE `error` event
 * (overloaded_error…), which keeps its mapping; anything else (undici's `TypeError: terminated`, a socket
 * reset) is the connection lost mid-turn.
 */
export function mapAnthropicStreamReadError(error: unknown, incompleteCalls: number): ProviderError {
  const mapped = mapAnthropicError(error);
  if (mapped.code !== 'unknown') return mapped;
  const detail = error instanceof Error ? error.message : String(error);
  return anthropicStreamInterruptedError(`connection lost: ${detail}`, incompleteCalls, error);
}

function describeIncompleteCalls(count: number): string {
  if (count === 0) return 'no tool call was left incomplete';
  return count === 1
    ? '1 tool call was left incomplete and was not run'
    : `${count} tool calls were left incomplete and were not run`;
}
