// The attack suite's provider failures: the worst-case model, failing once at one request the way a
// provider does (HTTP 429, HTTP 529, a stream cut mid-turn), so that the run is continued from its
// interrupted state with `continueLoop`.
import { type Model, ProviderError, type StreamEvent, turnStreamEvents } from '../../src/index.js';

export type ProviderFailure = '429' | '529' | 'cut-stream';

/** `inner`, except that request number `failing` (1-based) fails as `how`, without asking `inner`. */
export function failingOnce(inner: Model, failing: number, how: ProviderFailure): Model {
  let requests = 0;
  const failure = () =>
    how === '429'
      ? new ProviderError({ provider: 'test', code: 'rate_limited', message: '429', status: 429, retryable: true })
      : how === '529'
        ? new ProviderError({ provider: 'test', code: 'overloaded', message: '529', status: 529, retryable: true })
        : new ProviderError({ provider: 'test', code: 'connection', message: 'stream cut', retryable: true });
  return {
    provider: inner.provider,
    modelId: inner.modelId,
    async generate(request) {
      requests += 1;
      if (requests === failing) throw failure();
      return inner.generate(request);
    },
    async *stream(request): AsyncIterable<StreamEvent> {
      requests += 1;
      if (requests === failing) {
        // A few words of the turn, then the connection drops: nothing of the turn is run.
        yield { type: 'text-delta', text: 'Let me take care of' };
        yield { type: 'error', error: failure() };
        return;
      }
      const turn = await inner.generate(request);
      yield* turnStreamEvents(turn, { fragmentLength: 16 });
      yield { type: 'turn-end', turn, incompleteToolCallIds: [] };
    },
  };
}
