import { LoopStreamStopped } from './loop-stream-stopped.js';

type Deferred<T> = { readonly resolve: (value: T) => void; readonly reject: (error: unknown) => void };

/**
 * A producer that pushes events (`emit`), read as a pull-based async iterator: `emit` resolves only when the
 * reader asks for the next event, so the producer never runs ahead of its reader (back-pressure), and
 * nothing starts before the first `next()`.
 *
 * When the reader stops early (`break`, `return()`), `onStop` is called, the pending `emit` rejects with
 * {@link LoopStreamStopped} (as must every later one), and `return()` resolves once the producer has
 * unwound; an error it ends with other than that stop is thrown from `return()`. A producer's own error is
 * thrown from `next()` after the events it emitted before it.
 *
 * Hand-written rather than an async generator: each event is one promise handed over, not a generator's
 * queue and resumption on top of it (the loop stream hands over several events per tool call).
 */
export function pullEvents<T>(
  produce: (emit: (event: T) => Promise<void>) => Promise<unknown>,
  onStop: () => void,
): AsyncIterableIterator<T> {
  return new PulledEvents(produce, onStop);
}

class PulledEvents<T> implements AsyncIterableIterator<T> {
  readonly #produce: (emit: (event: T) => Promise<void>) => Promise<unknown>;
  readonly #onStop: () => void;
  /** The reader's pending `next()`, waiting for an event or the end. */
  #reader: Deferred<IteratorResult<T, undefined>> | undefined;
  /** The producer's pending `emit`, waiting for the reader to ask again. */
  #producer: Deferred<void> | undefined;
  #finished: Promise<void> | undefined;
  #ending: { readonly error: unknown } | undefined;
  #done = false;
  #stopped = false;
  /**
   * Calls of `next()` / `return()` run one after the other, as a generator's would: while one is in flight,
   * later ones wait here. A reader that awaits each call (`for await`) never makes one wait, and its call
   * runs at once, with no queue promise and no turn of the microtask queue before it.
   */
  #busy = false;
  readonly #waiting: (() => void)[] = [];
  readonly #release = (): void => {
    this.#busy = false;
    this.#waiting.shift()?.();
  };

  constructor(produce: (emit: (event: T) => Promise<void>) => Promise<unknown>, onStop: () => void) {
    this.#produce = produce;
    this.#onStop = onStop;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    return this.#serialised(() => this.#next());
  }

  return(): Promise<IteratorResult<T, undefined>> {
    return this.#serialised(() => this.#return());
  }

  #serialised<R>(step: () => Promise<R>): Promise<R> {
    if (this.#busy) {
      return new Promise<R>((resolve, reject) => {
        this.#waiting.push(() => this.#serialised(step).then(resolve, reject));
      });
    }
    this.#busy = true;
    let result: Promise<R>;
    try {
      result = step();
    } catch (error) {
      result = Promise.reject(error);
    }
    result.then(this.#release, this.#release);
    return result;
  }

  #next(): Promise<IteratorResult<T, undefined>> {
    if (this.#done) return Promise.resolve({ done: true, value: undefined });
    return new Promise<IteratorResult<T, undefined>>((resolve, reject) => {
      this.#reader = { resolve, reject };
      if (this.#finished === undefined) {
        this.#finished = this.#produce((event) => this.#emit(event)).then(
          () => this.#end({ done: true, value: undefined }),
          (error: unknown) => {
            this.#ending = { error };
            this.#end(undefined, error);
          },
        );
        return;
      }
      // The producer waits in `emit` for this very call: let it go on.
      const producer = this.#producer;
      this.#producer = undefined;
      producer?.resolve();
    });
  }

  #emit(event: T): Promise<void> {
    if (this.#stopped) return Promise.reject(new LoopStreamStopped());
    return new Promise<void>((resolve, reject) => {
      this.#producer = { resolve, reject };
      const reader = this.#reader;
      this.#reader = undefined;
      reader?.resolve({ done: false, value: event });
    });
  }

  #end(result: IteratorResult<T, undefined> | undefined, error?: unknown): void {
    const reader = this.#reader;
    this.#reader = undefined;
    if (this.#stopped) return;
    this.#done = true;
    if (result !== undefined) reader?.resolve(result);
    else reader?.reject(error);
  }

  async #return(): Promise<IteratorResult<T, undefined>> {
    if (this.#done || this.#finished === undefined) {
      this.#done = true;
      return { done: true, value: undefined };
    }
    this.#stopped = true;
    this.#done = true;
    this.#onStop();
    const producer = this.#producer;
    this.#producer = undefined;
    producer?.reject(new LoopStreamStopped());
    await this.#finished;
    const ending = this.#ending;
    if (ending !== undefined && !(ending.error instanceof LoopStreamStopped)) throw ending.error;
    return { done: true, value: undefined };
  }
}
