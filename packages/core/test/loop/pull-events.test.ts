import { describe, expect, it } from 'vitest';
import { LoopStreamStopped } from '../../src/loop/loop-stream-stopped.js';
import { pullEvents } from '../../src/loop/pull-events.js';
import { settle } from '../support.js';

describe('pullEvents', () => {
  it('starts nothing before the first next(), and never lets the producer run ahead of the reader', async () => {
    const log: string[] = [];
    const events = pullEvents<number>(
      async (emit) => {
        for (const value of [1, 2, 3]) {
          log.push(`emit ${value}`);
          await emit(value);
          log.push(`resumed ${value}`);
        }
      },
      () => {},
    );
    await settle();
    expect(log).toEqual([]);
    expect(await events.next()).toEqual({ done: false, value: 1 });
    await settle();
    expect(log).toEqual(['emit 1']);
    expect(await events.next()).toEqual({ done: false, value: 2 });
    await settle();
    expect(log).toEqual(['emit 1', 'resumed 1', 'emit 2']);
    const rest: number[] = [];
    for await (const value of events) rest.push(value);
    expect(rest).toEqual([3]);
  });

  it("throws the producer's error after the events it emitted before it", async () => {
    const events = pullEvents<string>(
      async (emit) => {
        await emit('first');
        throw new Error('model failed');
      },
      () => {},
    );
    expect(await events.next()).toEqual({ done: false, value: 'first' });
    await expect(events.next()).rejects.toThrow('model failed');
  });

  it('a reader that stops: onStop, the pending emit rejects with the stop, return() waits for the unwinding', async () => {
    const log: string[] = [];
    const events = pullEvents<number>(
      async (emit) => {
        try {
          await emit(1);
          log.push('not reached');
        } catch (error) {
          log.push(error instanceof LoopStreamStopped ? 'stopped' : 'other');
          await settle();
          log.push('unwound');
          // Any later emit is refused at once.
          await emit(2).catch((later: unknown) => log.push(later instanceof LoopStreamStopped ? 'refused' : 'x'));
          throw error;
        }
      },
      () => log.push('onStop'),
    );
    expect(await events.next()).toEqual({ done: false, value: 1 });
    expect(await events.return?.()).toEqual({ done: true, value: undefined });
    expect(log).toEqual(['onStop', 'stopped', 'unwound', 'refused']);
  });

  it('return() reports a producer that fails while unwinding', async () => {
    const events = pullEvents<number>(
      async (emit) => {
        try {
          await emit(1);
        } catch {
          throw new Error('journal down while answering the open turn');
        }
      },
      () => {},
    );
    await events.next();
    await expect(events.return?.()).rejects.toThrow('journal down');
  });

  it('answers next() calls made without waiting one after the other, as a generator does', async () => {
    const events = pullEvents<number>(
      async (emit) => {
        await emit(1);
        await emit(2);
      },
      () => {},
    );
    const [first, second, third] = await Promise.all([events.next(), events.next(), events.next()]);
    expect([first, second, third]).toEqual([
      { done: false, value: 1 },
      { done: false, value: 2 },
      { done: true, value: undefined },
    ]);
  });

  it('return() before the first next() starts nothing', async () => {
    let started = false;
    const events = pullEvents<number>(
      async () => {
        started = true;
      },
      () => {},
    );
    expect(await events.return?.()).toEqual({ done: true, value: undefined });
    expect(await events.next()).toEqual({ done: true, value: undefined });
    expect(started).toBe(false);
  });

  it('hands over events emitted back to back one at a time, and resumes the producer only after the last', async () => {
    const log: string[] = [];
    const events = pullEvents<string>(
      async (emit) => {
        log.push('emit a, b, c');
        void emit('a');
        void emit('b');
        await emit('c');
        log.push('resumed');
        await emit('d');
      },
      () => {},
    );
    expect(await events.next()).toEqual({ done: false, value: 'a' });
    await settle();
    expect(await events.next()).toEqual({ done: false, value: 'b' });
    await settle();
    expect(await events.next()).toEqual({ done: false, value: 'c' });
    await settle();
    // Three events read, and the producer still waits for the reader to ask after the last of them.
    expect(log).toEqual(['emit a, b, c']);
    expect(await events.next()).toEqual({ done: false, value: 'd' });
    expect(log).toEqual(['emit a, b, c', 'resumed']);
    expect(await events.next()).toEqual({ done: true, value: undefined });
  });

  it('drops a queued event once its `until` signal has fired, and keeps one emitted without', async () => {
    const controller = new AbortController();
    const events = pullEvents<string>(
      async (emit) => {
        void emit('a', controller.signal);
        void emit('b', controller.signal);
        void emit('kept');
        await emit('c', controller.signal);
        await emit(controller.signal.aborted ? 'saw the abort' : 'missed it');
      },
      () => {},
    );
    expect(await events.next()).toEqual({ done: false, value: 'a' });
    controller.abort();
    const rest: string[] = [];
    for await (const value of events) rest.push(value);
    expect(rest).toEqual(['kept', 'saw the abort']);
  });

  it('a reader that stops with events still queued: they are dropped and the pending emit rejects', async () => {
    const log: string[] = [];
    const events = pullEvents<number>(
      async (emit) => {
        void emit(1).catch(() => {});
        await emit(2).catch((error: unknown) => log.push(error instanceof LoopStreamStopped ? 'stopped' : 'other'));
      },
      () => log.push('onStop'),
    );
    expect(await events.next()).toEqual({ done: false, value: 1 });
    expect(await events.return?.()).toEqual({ done: true, value: undefined });
    expect(await events.next()).toEqual({ done: true, value: undefined });
    expect(log).toEqual(['onStop', 'stopped']);
  });
});
