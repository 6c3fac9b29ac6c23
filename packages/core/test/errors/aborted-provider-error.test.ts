import { describe, expect, it } from 'vitest';
import { abortedProviderError, ProviderError } from '../../src/index.js';

describe('abortedProviderError', () => {
  it('is one non-retryable `aborted` ProviderError for every adapter, request or stream', () => {
    const cause = new DOMException('stopped', 'AbortError');
    const error = abortedProviderError('openai', 'stream', cause);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'openai', code: 'aborted', retryable: false, cause });
    expect(error.message).toContain('stream aborted');
    const request = abortedProviderError('google', 'request');
    expect(request.message).toContain('request aborted');
    expect('cause' in request && request.cause !== undefined).toBe(false);
  });
});
