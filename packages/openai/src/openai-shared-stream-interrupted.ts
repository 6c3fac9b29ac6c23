import type { ToolcircuitError } from '@toolcircuit/core';
import {
  abortedProviderError,
  isTransportFailure,
  ProviderError,
  streamInterruptedError,
} from '@toolcircuit/core/provider';
import { mapOpenAIError } from './openai-shared-map-error.js';

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
  if (!(mapped instanceof ProviderError) || (mapped.code !== 'unknown' && !isTransportFailure(error))) return mapped;
  if (signal?.aborted === true) {
    return abortedProviderError(provider, 'stream', error);
  }
  const detail = error instanceof Error ? error.message : String(error);
  return streamInterruptedError(provider, `connection lost: ${detail}`, incompleteCalls, error);
}
