import type { Anthropic } from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { StreamEvent } from '@toolcircuit/core';
import {
  abortedProviderError,
  invalidResponseError,
  isEventStream,
  ProviderError,
  streamInterruptedError,
  unsupportedCallError,
} from '@toolcircuit/core/provider';
import { anthropicCallOptions } from './anthropic-request-options.js';
import { AnthropicStreamAssembler } from './anthropic-stream-assembler.js';
import { mapAnthropicStreamReadError } from './anthropic-stream-interrupted.js';
import type { AnthropicRequest } from './build-anthropic-request.js';
import { mapAnthropicError } from './map-anthropic-error.js';

/**
 * Streams one turn through the SDK (`messages.create({ stream: true })`) as neutral events, ending with
 * exactly one `turn-end` or `error`:
 * - an HTTP error before the stream (429…) or an `error` event inside it (overloaded_error…) → `error`
 *   with a {@link ProviderError};
 * - the connection lost while reading → `error` with a retryable `connection` ProviderError naming how
 *   many calls it left incomplete;
 * - the signal aborted → `error` with code `aborted` (the SDK ends an aborted stream silently, so this is
 *   checked here);
 * - a stream that ends before the turn did (cut body, no stop reason and no `message_stop`) → `error` with
 *   a retryable `connection` ProviderError naming how many calls it left incomplete: the turn never
 *   completed, so there is no turn to report (same rule as the Gemini adapter, whose SDKs throw on it);
 * - otherwise `turn-end`; calls cut by `max_tokens` are listed in `incompleteToolCallIds` there, because
 *   the provider did finish that turn, it only truncated it.
 */
export async function* streamAnthropic(
  client: Anthropic,
  request: AnthropicRequest,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent, void, undefined> {
  const params: MessageCreateParamsStreaming = { ...request.body, stream: true };
  let stream: AsyncIterable<RawMessageStreamEvent>;
  try {
    const answer = await client.messages.create(params, anthropicCallOptions(client, params, signal)).withResponse();
    stream = answer.data;
    const contentType = answer.response.headers.get('content-type');
    // An HTML page (a proxy's) holds no event: without this it would read as a stream cut before its first.
    if (!isEventStream(contentType)) {
      yield { type: 'error', error: invalidResponseError('anthropic', { contentType }) };
      return;
    }
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
        yield { type: 'error', error: abortedProviderError('anthropic', 'stream', signal.reason) };
        return;
      }
    }
  } catch (error) {
    const incompleteCalls = assembler.finish().incompleteToolCallIds.length;
    yield {
      type: 'error',
      error:
        signal?.aborted === true
          ? abortedProviderError('anthropic', 'stream', error)
          : mapAnthropicStreamReadError(error, incompleteCalls),
    };
    return;
  }
  if (signal?.aborted === true && !assembler.complete) {
    yield { type: 'error', error: abortedProviderError('anthropic', 'stream', signal.reason) };
    return;
  }
  const { turn, incompleteToolCallIds, lateEvents, unsupported } = assembler.finish();
  if (!assembler.complete) {
    // No late tool-call-end either: a cut stream leaves every unstopped or unparsable call incomplete.
    const reason = 'no stop reason, no message_stop';
    yield { type: 'error', error: streamInterruptedError('anthropic', reason, incompleteToolCallIds.length) };
    return;
  }
  yield* lateEvents;
  if (unsupported !== undefined) {
    yield { type: 'error', error: unsupportedCallError('anthropic', unsupported, turn) };
    return;
  }
  yield { type: 'turn-end', turn, incompleteToolCallIds };
}
