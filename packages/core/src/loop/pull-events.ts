import { LoopStreamStopped } from './loop-stream-stopped.js';

/**
 * A producer that pushes events (`emit`), read as a pull-based async iterator: `emit` resolves only when the
 * reader asks for the next event, so the producer never runs ahead of its reader (back-pressure), and
 * nothing starts before the first `next()`.
 *
 * An event emitted while an earlier one is still unread (the producer did not wait for the earlier `emit`)
 * queues behind it and is read next, with no hand-over back to the producer in between; every `emit` still
 * pending resolves together once the reader asks after the last queued event. An event emitted with
 * `until` is dropped unread if that signal has fired by the time the reader asks for it (as if the producer
 * had checked the signal after the event before it). A producer that emits two
 * events it already holds (a call's verdict and its result) this way pays one hand-over for both, and does
 * no other work between them, so it runs no further ahead of its reader than before.
 *
 * When the reader stops early (`break`, `return()`), `onStop` is called, the pending `emit` rejects with
 * {@link LoopStreamStopped} (as must every later one), queued events are dropped, and `return()` resolves
 * once the producer has unwound; an error it ends with other than that stop is thrown from `return()`. A
 * producer's own error is thrown from `next()` after the events it emitted before it.
 *
 * Hand-written rather than an async generator: each event is one promise handed over, not a generator's
 * queue and resumption on top of it (the loop stream hands over several events per tool call).
 */
export function pullEvents<T>(
  produce: (emit: (event: T, until?: AbortSignal) => Promise<void>) => Promise<unknown>,
  onStop: () => void,
): AsyncIterableIterator<T> {
  return new PulledEvents(produce, onStop);
}

type Resolve<T> = (value: T) => void;
type Reject = (error: unknown) => void;

// One executor for every promise made here, so a promise costs no closure of its own: `new Promise` calls it
// synchronously, and the two functions are taken from here at once.
let capturedResolve: Resolve<never> | undefined;
let capturedReject: Reject | undefined;
function capture(resolve: Resolve<never>, reject: Reject): void {
  capturedResolve = resolve;
  capturedReject = reject;
}

const DONE: IteratorResult<never, undefined> = Object.freeze({ done: true, value: undefined });

class PulledEvents<T> implements AsyncIterableIterator<T> {
  readonly #produce: (emit: (event: T, until?: AbortSignal) => Promise<void>) => Promise<unknown>;
  readonly #onStop: () => void;
  readonly #emit = (event: T, until?: AbortSignal): Promise<void> => this.#emitted(event, until);
  /** The reader's pending `next()`, waiting for an event or the end. */
  #reader: Promise<IteratorResult<T, undefined>> | undefined;
  #resolveReader: Resolve<IteratorResult<T, undefined>> | undefined;
  #rejectReader: Reject | undefined;
  /** The producer's pending `emit` (shared by the events queued behind the first), waiting for the reader. */
  #producer: Promise<void> | undefined;
  #resumeProducer: Resolve<void> | undefined;
  #stopProducer: Reject | undefined;
  /**
   * Events emitted while an earlier one was unread: slots `#queuedFrom` to `#queuedTo`. The arrays keep
   * their length between turns (a slot read is cleared): emptying them by `length = 0` gave their storage
   * back, to be grown again by the next turn's events.
   */
  readonly #queued: (T | undefined)[] = [];
  /** Each queued event's `until` (see `emit`): dropped unread once it has fired. */
  readonly #queuedUntil: (AbortSignal | undefined)[] = [];
  #queuedFrom = 0;
  #queuedTo = 0;
  #finished: Promise<void> | undefined;
  #ending: { readonly error: unknown } | undefined;
  /** The producer's error, not yet thrown to a reader (it ended while events were still queued). */
  #unreadError: { readonly error: unknown } | undefined;
  #done = false;
  #stopped = false;
  /** A `return()` in flight: later calls wait for it, as they wait for a pending `next()`. */
  #returning: Promise<IteratorResult<T, undefined>> | undefined;
  /**
   * Calls of `next()` / `return()` run one after the other, as a generator's would: while one is in flight,
   * later ones wait here. A reader that awaits each call (`for await`) never makes one wait, and its call
   * runs at once, with no queue promise and no turn of the microtask queue before it.
   */
  readonly #waiting: (() => void)[] = [];
  #releaseAttached = false;
  readonly #release = (): void => {
    this.#releaseAttached = false;
    this.#waiting.shift()?.();
  };

  constructor(
    produce: (emit: (event: T, until?: AbortSignal) => Promise<void>) => Promise<unknown>,
    onStop: () => void,
  ) {
    this.#produce = produce;
    this.#onStop = onStop;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    const busy = this.#reader ?? this.#returning;
    if (busy !== undefined) return this.#wait(busy, () => this.next());
    return this.#next();
  }

  return(): Promise<IteratorResult<T, undefined>> {
    const busy = this.#reader ?? this.#returning;
    if (busy !== undefined) return this.#wait(busy, () => this.return());
    const returning = this.#return();
    this.#returning = returning;
    const clear = (): void => {
      if (this.#returning === returning) this.#returning = undefined;
    };
    returning.then(clear, clear);
    return returning;
  }

  /** A call made while another is in flight: run once that one settles (the rare path; it may allocate). */
  #wait<R>(busy: Promise<unknown>, step: () => Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#waiting.push(() => step().then(resolve, reject));
      if (!this.#releaseAttached) {
        this.#releaseAttached = true;
        busy.then(this.#release, this.#release);
      }
    });
  }

  #next(): Promise<IteratorResult<T, undefined>> {
    // An event queued behind the one last read: handed over at once, the producer keeps waiting.
    while (this.#queuedFrom < this.#queuedTo) {
      const index = this.#queuedFrom;
      this.#queuedFrom += 1;
      const event = this.#queued[index] as T;
      const until = this.#queuedUntil[index];
      this.#queued[index] = undefined;
      this.#queuedUntil[index] = undefined;
      if (this.#queuedFrom === this.#queuedTo) this.#clearQueue();
      if (until?.aborted !== true) return Promise.resolve({ done: false, value: event });
    }
    const unread = this.#unreadError;
    if (unread !== undefined) {
      this.#unreadError = undefined;
      return Promise.reject(unread.error);
    }
    if (this.#done) return Promise.resolve(DONE);
    const reader = new Promise<IteratorResult<T, undefined>>(capture);
    this.#reader = reader;
    this.#resolveReader = capturedResolve as Resolve<IteratorResult<T, undefined>>;
    this.#rejectReader = capturedReject;
    if (this.#finished === undefined) {
      this.#finished = this.#produce(this.#emit).then(
        () => this.#end(undefined),
        (error: unknown) => {
          this.#ending = { error };
          this.#end(this.#ending);
        },
      );
      return reader;
    }
    // The producer waits in `emit` for this very call: let it go on.
    const resume = this.#resumeProducer;
    this.#producer = undefined;
    this.#resumeProducer = undefined;
    this.#stopProducer = undefined;
    resume?.();
    return reader;
  }

  #clearQueue(): void {
    this.#queued.fill(undefined, this.#queuedFrom, this.#queuedTo);
    this.#queuedUntil.fill(undefined, this.#queuedFrom, this.#queuedTo);
    this.#queuedFrom = 0;
    this.#queuedTo = 0;
  }

  #emitted(event: T, until: AbortSignal | undefined): Promise<void> {
    if (this.#stopped) return Promise.reject(new LoopStreamStopped());
    const resolve = this.#resolveReader;
    if (resolve !== undefined) {
      this.#reader = undefined;
      this.#resolveReader = undefined;
      this.#rejectReader = undefined;
      resolve({ done: false, value: event });
    } else {
      this.#queued[this.#queuedTo] = event;
      this.#queuedUntil[this.#queuedTo] = until;
      this.#queuedTo += 1;
    }
    let producer = this.#producer;
    if (producer === undefined) {
      producer = new Promise<void>(capture);
      this.#producer = producer;
      this.#resumeProducer = capturedResolve as Resolve<void>;
      this.#stopProducer = capturedReject;
    }
    return producer;
  }

  #end(failure: { readonly error: unknown } | undefined): void {
    const resolve = this.#resolveReader;
    const reject = this.#rejectReader;
    this.#reader = undefined;
    this.#resolveReader = undefined;
    this.#rejectReader = undefined;
    if (this.#stopped) return;
    this.#done = true;
    if (resolve === undefined) {
      // Nobody waits: the events still queued are read first, then the error.
      if (failure !== undefined) this.#unreadError = failure;
      return;
    }
    if (failure === undefined) resolve(DONE);
    else reject?.(failure.error);
  }

  async #return(): Promise<IteratorResult<T, undefined>> {
    if (this.#done || this.#finished === undefined) {
      this.#done = true;
      this.#clearQueue();
      this.#unreadError = undefined;
      return DONE;
    }
    this.#stopped = true;
    this.#done = true;
    this.#clearQueue();
    this.#onStop();
    const stop = this.#stopProducer;
    this.#producer = undefined;
    this.#resumeProducer = undefined;
    this.#stopProducer = undefined;
    stop?.(new LoopStreamStopped());
    await this.#finished;
    const ending = this.#ending;
    if (ending !== undefined && !(ending.error instanceof LoopStreamStopped)) throw ending.error;
    return DONE;
  }
}
