import { ProviderError } from '../errors/provider-error.js';

/**
 * How the loop retries a model request that failed with a retryable `ProviderError` (429, 5xx, 529, a
 * connection lost, a stream cut before its end-of-turn marker). Off by default: the Anthropic and OpenAI SDKs
 * already retry twice by themselves (they honour `retry-after` and `x-should-retry`), and a second layer on
 * top would multiply the requests. Turn it on to have one policy for every provider — the Gemini SDKs do not
 * retry, and no SDK retries a stream cut after its headers — and then set the adapter's `maxRetries: 0`, so
 * that only the loop retries.
 */
export interface RetryPolicy {
  /** Requests per turn in all, the first included (≥ 1). `1` does not retry. */
  readonly attempts: number;
  /** Delay before the first retry, doubled for each next one. Default 500 ms. */
  readonly baseDelayMs?: number;
  /** No wait is longer: a `retryAfterMs` beyond it is not waited for, the error is thrown. Default 30 s. */
  readonly maxDelayMs?: number;
  /** `full` (default): a random delay up to the backoff, so that many clients do not retry in step. */
  readonly jitter?: 'full' | 'none';
}

const DEFAULT_BASE_DELAY_MS = 500;
const DEFAULT_MAX_DELAY_MS = 30_000;

/**
 * The wait before retrying after failed attempt `attempt` (1-based), or `undefined` when the error is not
 * retried: not a retryable `ProviderError`, no attempts left, or a `retryAfterMs` longer than `maxDelayMs`.
 * The provider's `retryAfterMs` is a floor: the loop never asks again sooner than the provider said.
 */
export function retryDelayMs(
  policy: RetryPolicy | undefined,
  attempt: number,
  error: unknown,
  random: () => number = Math.random,
): number | undefined {
  if (policy === undefined || attempt >= policy.attempts) return undefined;
  if (!(error instanceof ProviderError) || !error.retryable) return undefined;
  const base = policy.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const max = policy.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const backoff = Math.min(max, base * 2 ** (attempt - 1));
  const jittered = policy.jitter === 'none' ? backoff : Math.floor(random() * backoff);
  const floor = error.retryAfterMs ?? 0;
  if (floor > max) return undefined;
  return Math.max(jittered, floor);
}

/** Resolves after `ms`, or `false` at once when the signal fires (then the run ends as aborted). */
export function waitUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted === true) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
