import { describe, expect, it } from 'vitest';
import {
  createCatalogue,
  createSession,
  InvalidLoopOptionsError,
  type LoopStreamEvent,
  type Message,
  type Model,
  type ModelTurn,
  ProviderError,
  type RetryEvent,
  retryDelayMs,
  runLoop,
  streamLoop,
} from '../../src/index.js';
import { scripted, textTurn } from '../support.js';

const session = createSession({ id: 's', humanId: 'h' });
const catalogue = createCatalogue([]);
const user: Message[] = [{ role: 'user', content: 'hi' }];

function failure(code: 'overloaded' | 'invalid_request', retryAfterMs?: number) {
  return new ProviderError({
    provider: 'test',
    code,
    message: code,
    retryable: code === 'overloaded',
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

function failingThen(failures: readonly ProviderError[]) {
  return scripted([
    ...failures.map((error) => () => {
      throw error;
    }),
    textTurn('ok'),
  ]);
}

describe('retries in the loop', () => {
  it('retries a retryable error per the policy, each retry an event and a hook call, then completes', async () => {
    const retries: RetryEvent[] = [];
    const model = failingThen([failure('overloaded'), failure('overloaded')]);
    const stream = streamLoop({
      model,
      catalogue,
      session,
      messages: user,
      retry: { attempts: 3, baseDelayMs: 1, jitter: 'none' },
      hooks: { onRetry: (event) => void retries.push(event) },
    });
    const events: LoopStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect((await stream.result).status).toBe('completed');
    expect(
      events
        .filter((event) => event.type === 'retry')
        .map((event) => [event.type, 'attempt' in event && event.attempt]),
    ).toEqual([
      ['retry', 1],
      ['retry', 2],
    ]);
    expect(events.some((event) => event.type === 'error')).toBe(false);
    expect(retries.map((event) => [event.attempt, event.delayMs])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(model.requests).toHaveLength(3);
  });

  it('gives up after the attempts, with the interrupted state on the error; never retries a non-retryable error', async () => {
    const many = failingThen([failure('overloaded'), failure('overloaded')]);
    const error = await runLoop({
      model: many,
      catalogue,
      session,
      messages: user,
      retry: { attempts: 2, baseDelayMs: 0 },
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'overloaded', interrupted: { turn: 1 } });
    expect(many.requests).toHaveLength(2);

    const bad = failingThen([failure('invalid_request')]);
    await expect(
      runLoop({ model: bad, catalogue, session, messages: user, retry: { attempts: 5 } }),
    ).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect(bad.requests).toHaveLength(1);
  });

  it('a model that throws before returning a promise is retried and reported as one that rejects', async () => {
    let calls = 0;
    const throwing: Model = {
      provider: 'test',
      modelId: 'sync-throw',
      // Not async: the throw happens inside the loop's call, not in a promise.
      generate(): Promise<ModelTurn> {
        calls += 1;
        if (calls === 1) throw failure('overloaded');
        if (calls === 2) return Promise.resolve(textTurn('ok'));
        throw failure('invalid_request');
      },
    };
    const options = { model: throwing, catalogue, session, messages: user };
    const retried = await runLoop({ ...options, retry: { attempts: 2, baseDelayMs: 0 } });
    expect([retried.status, retried.text, calls]).toEqual(['completed', 'ok', 2]);
    const error = await runLoop(options).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'invalid_request', interrupted: { turn: 1 } });
    expect(calls).toBe(3);
  });

  it('waits at least retryAfterMs, and not at all past maxDelayMs', () => {
    const policy = { attempts: 5, baseDelayMs: 10, maxDelayMs: 1000 } as const;
    expect(retryDelayMs(policy, 1, failure('overloaded', 700), () => 0)).toBe(700);
    expect(retryDelayMs(policy, 1, failure('overloaded', 5000))).toBeUndefined();
    expect(retryDelayMs(policy, 3, failure('overloaded'), () => 0.5)).toBe(20);
    expect(retryDelayMs({ ...policy, attempts: 30, jitter: 'none' }, 20, failure('overloaded'))).toBe(1000);
    expect(retryDelayMs(policy, 5, failure('overloaded'))).toBeUndefined();
    expect(retryDelayMs(undefined, 1, failure('overloaded'))).toBeUndefined();
  });

  it('the signal cancels the wait: the run ends aborted, without another request', async () => {
    const controller = new AbortController();
    const model = failingThen([failure('overloaded', 60_000)]);
    const pending = runLoop({
      model,
      catalogue,
      session,
      messages: user,
      signal: controller.signal,
      retry: { attempts: 3, maxDelayMs: 120_000 },
      hooks: { onRetry: () => void setTimeout(() => controller.abort(), 5) },
    });
    expect((await pending).status).toBe('aborted');
    expect(model.requests).toHaveLength(1);
  });

  it('refuses a policy it could only misread', async () => {
    await expect(
      runLoop({ model: scripted([]), catalogue, session, messages: user, retry: { attempts: 0 } }),
    ).rejects.toBeInstanceOf(InvalidLoopOptionsError);
  });
});
