import { ProviderError } from './provider-error.js';

/**
 * For adapters: the stream stopped before the provider finished the turn — the body ended without the
 * provider's end-of-turn marker (Anthropic `message_stop`, Chat `finish_reason`, Responses
 * `response.completed`, Gemini `finishReason`), or the connection was lost while reading. The turn never
 * completed, so it is not reported and nothing of it runs. Retryable: the same request can give a whole turn.
 * One shape for every adapter, so that the loop's retry and resume treat every provider alike.
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

function describeIncompleteCalls(count: number): string {
  if (count === 0) return 'no tool call was left incomplete';
  return count === 1
    ? '1 tool call was left incomplete and was not run'
    : `${count} tool calls were left incomplete and were not run`;
}
