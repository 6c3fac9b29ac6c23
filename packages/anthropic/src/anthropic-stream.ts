import type { Anthropic } from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { ProviderError, type StreamEvent } from '@toolcircuit/core';
import { AnthropicStreamAssembler } from './anthropic-stream-assembler.js';
import type { AnthropicRequest } from './build-anthropic-request.js';
import { mapAnthropicError } from './map-anthropic-error.js';

/**
 * Streams one turn through the SDK (`messages.create({ stream: true })`) as neutral events, ending with
 * exactly one `turn-end` or `error`:
 * - an HTTP error before the stream (429…), an `error` event inside it (overloaded_error…), or a transport
 *   failure while reading → `error` with a {@link ProviderError};
 * - the signal aborted → `error` with code `aborted` (the SDK ends an aborted stream silently, so this is
 *   checked here);
 * - a stream that ends before the stop reason (cut body) → `turn-end` with stop reason `error`, and the
 *   calls it cut listed in `incompleteToolCallIds`.
 */
export async function* streamAnthropic(
  client: Anthropic,
  request: AnthropicRequest,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent, void, undefined> {
  const params: MessageCreateParamsStreaming = { ...request.body, stream: true };
  let stream: AsyncIterable<RawMessageStreamEvent>;
  try {
    stream = await client.messages.create(params, signal === undefined ? undefined : { signal });
  } catch (error) {
    yield { type: 'error', error: mapAnthropicError(error) };
    return;
  }
  const assembler = new AnthropicStreamAssembler(request.names);
  try {
    for await (const event of stream) {
      yield* assembler.push(event);
      // Leaving the loop makes the SDK abort the request; checked per event because the body may be buffered.
      if (signal?.aborted === true) {
        yield { type: 'error', error: abortError(signal.reason) };
        return;
      }
    }
  } catch (error) {
    yield { type: 'error', error: signal?.aborted === true ? abortError(error) : streamFailure(error) };
    return;
  }
  if (signal?.aborted === true && !assembler.complete) {
    yield { type: 'error', error: abortError(signal.reason) };
    return;
  }
  const { turn, incompleteToolCallIds, lateEvents } = assembler.finish();
  yield* lateEvents;
  yield { type: 'turn-end', turn, incompleteToolCallIds };
}

function abortError(cause: unknown): ProviderError {
  return new ProviderError({
    provider: 'anthropic',
    code: 'aborted',
    message: 'stream aborted',
    retryable: false,
    cause,
  });
}

// The SDK raises an APIError for an SSE `error` event; anything else while reading is the connection.
function streamFailure(error: unknown): ProviderError {
  const mapped = mapAnthropicError(error);
  if (mapped.code !== 'unknown') return mapped;
  return new ProviderError({
    provider: 'anthropic',
    code: 'connection',
    message: `stream broke: ${error instanceof Error ? error.message : String(error)}`,
    retryable: true,
    cause: error,
  });
}
