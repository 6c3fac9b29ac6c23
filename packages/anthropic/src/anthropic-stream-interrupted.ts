import type { ProviderError } from '@toolcircuit/core';
import { isTransportFailure, streamInterruptedError } from '@toolcircuit/core/provider';
import { mapAnthropicError } from './map-anthropic-error.js';

// Not ANTHROPIC_PROVIDER: importing the model file from here would close an import cycle.
const PROVIDER = 'anthropic';

/**
 * An error thrown while reading an open stream. The SDK raises an APIError for an SSE `error` event
 * (overloaded_error…), which keeps its mapping; anything else (undici's `TypeError: terminated`, a socket
 * reset) is the connection lost mid-turn.
 */
export function mapAnthropicStreamReadError(error: unknown, incompleteCalls: number): ProviderError {
  const mapped = mapAnthropicError(error);
  if (mapped.code !== 'unknown' && !isTransportFailure(error)) return mapped;
  const detail = error instanceof Error ? error.message : String(error);
  return streamInterruptedError(PROVIDER, `connection lost: ${detail}`, incompleteCalls, error);
}
