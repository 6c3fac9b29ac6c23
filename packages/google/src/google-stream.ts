import type { StreamEvent } from '@toolcircuit/core';
import { abortedProviderError, streamInterruptedError, unsupportedCallError } from '@toolcircuit/core/provider';
import type { BuiltGoogleRequest } from './build-google-request.js';
import type { GoogleBinding } from './google-binding.js';
import { GOOGLE_PROVIDER } from './google-metadata.js';
import { GoogleStreamAssembler } from './google-stream-assembler.js';
import { mapGoogleError } from './map-google-error.js';

/**
 * Streams one turn (`streamGenerateContent?alt=sse` through the binding's SDK) as neutral events, ending
 * with exactly one `turn-end` or `error`:
 * - an HTTP error before the stream (429…), an error chunk inside it, or a stream cut mid-event (both
 *   SDKs throw on an unterminated chunk) → `error` with a `ProviderError`;
 * - the signal aborted → `error` with code `aborted`;
 * - a body that ends (even cleanly) before a chunk with a `finishReason` or a prompt `blockReason` →
 *   `error` with a retryable `connection` ProviderError: the turn never finished, nothing of it runs;
 * - otherwise `turn-end` with the assembled turn and any call still open at the end as incomplete.
 */
export async function* streamGoogle(
  binding: GoogleBinding,
  built: BuiltGoogleRequest,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent, void, undefined> {
  const assembler = new GoogleStreamAssembler(built.parse);
  try {
    for await (const chunk of binding.streamGenerateContent(built.body, signal)) {
      yield* assembler.push(chunk);
      // Checked per chunk: the SDK may already hold the rest of the body, so it would not notice.
      if (signal?.aborted === true) {
        yield { type: 'error', error: abortedProviderError(GOOGLE_PROVIDER, 'stream', signal.reason) };
        return;
      }
    }
  } catch (error) {
    yield { type: 'error', error: mapGoogleError(error, signal) };
    return;
  }
  const { turn, incompleteToolCallIds, unsupported } = assembler.finish();
  // Gemini's last chunk carries the finishReason (or a prompt block); a body that ended before it, even
  // cleanly at a chunk boundary, is a turn the provider never finished: nothing of it may run.
  if (!assembler.finished) {
    const calls = turn.content.filter((part) => part.type === 'tool_call').length;
    yield { type: 'error', error: streamInterruptedError(GOOGLE_PROVIDER, 'no finishReason', calls) };
    return;
  }
  if (unsupported !== undefined) {
    yield { type: 'error', error: unsupportedCallError(GOOGLE_PROVIDER, unsupported, turn) };
    return;
  }
  // Gemini grounds the text once it is whole (its metadata comes with the last chunks): the sources follow it.
  for (const part of turn.content) {
    if (part.type === 'text') for (const source of part.sources ?? []) yield { type: 'source', source };
  }
  yield { type: 'turn-end', turn, incompleteToolCallIds };
}
