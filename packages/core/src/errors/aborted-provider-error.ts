import { ProviderError } from './provider-error.js';

/**
 * For adapters: the caller's signal stopped the request or the stream. Never retryable: the caller asked for
 * it. One shape for every adapter, so that an application tells an abort from a failure the same way on all.
 */
export function abortedProviderError(provider: string, what: 'request' | 'stream', cause?: unknown): ProviderError {
  return new ProviderError({
    provider,
    code: 'aborted',
    message: `${what} aborted`,
    retryable: false,
    ...(cause === undefined ? {} : { cause }),
  });
}
