import { LoopStreamStopped } from './loop-stream-stopped.js';

type Handoff<T> =
  | { readonly kind: 'event'; readonly event: T }
  | { readonly kind: 'done' }
  | { readonly kind: 'error'; readonly error: unknown };

/**
 * A producer that pushes events (`emit`), read as a pull-based async iterator: `emit` resolves only when the
 * reader asks for the next event, so the producer never runs ahead of its reader (back-pressure), and
 * nothing starts before the first `next()`.
 *
 * When the reader stops early (`break`, `return()`), `onStop` is called, the pending `emit` rejects with
 * {@link LoopStreamStopped} (as must every later one), and `return()` resolves once the producer has
 * unwound; an error it ends with other than that stop is thrown from `return()`. A producer's own error is
 * thrown from `next()` after the events it emitted before it.
 */
export async function* pullEvents<T>(
  produce: (emit: (event: T) => Promise<void>) => Promise<unknown>,
  onStop: () => void,
): AsyncGenerator<T, void, undefined> {
  let offered: Handoff<T> | undefined;
  let take: ((handoff: Handoff<T>) => void) | undefined;
  let resume: { readonly resolve: () => void; readonly reject: (error: unknown) => void } | undefined;
  let stopped = false;
  const offer = (handoff: Handoff<T>): void => {
    if (take === undefined) {
      offered = handoff;
      return;
    }
    const taker = take;
    take = undefined;
    taker(handoff);
  };
  const emit = (event: T): Promise<void> => {
    if (stopped) return Promise.reject(new LoopStreamStopped());
    return new Promise<void>((resolve, reject) => {
      resume = { resolve, reject };
      offer({ kind: 'event', event });
    });
  };
  let ending: { readonly error: unknown } | undefined;
  const finished = produce(emit).then(
    () => offer({ kind: 'done' }),
    (error: unknown) => {
      ending = { error };
      offer({ kind: 'error', error });
    },
  );

  let over = false;
  try {
    for (;;) {
      const handoff =
        offered ??
        (await new Promise<Handoff<T>>((resolve) => {
          take = resolve;
        }));
      offered = undefined;
      if (handoff.kind === 'done') break;
      if (handoff.kind === 'error') {
        over = true;
        throw handoff.error;
      }
      yield handoff.event;
      const waiting = resume;
      resume = undefined;
      waiting?.resolve();
    }
    over = true;
  } finally {
    if (!over) {
      stopped = true;
      onStop();
      const waiting = resume;
      resume = undefined;
      waiting?.reject(new LoopStreamStopped());
      await finished;
      // Reached only through a `return()` at the yield (nothing is thrown inside the try), so this throw
      // overrides no other error: it is how `return()` reports a producer that failed while unwinding.
      // biome-ignore lint/correctness/noUnsafeFinally: see above.
      if (ending !== undefined && !(ending.error instanceof LoopStreamStopped)) throw ending.error;
    }
  }
}
