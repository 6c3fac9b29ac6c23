import { runBounded } from './run-bounded.js';

export interface Settled<T> {
  /** The task's position in the list it was given in. */
  readonly index: number;
  readonly value: T;
}

/**
 * Runs tasks with at most `bound` in flight, like {@link runBounded}, but yields each result as soon as its
 * task settles (in settle order, with its index), so a caller can report one while the others still run.
 * Results that arrive while the caller is busy wait in a queue no longer than the task list.
 *
 * When a task throws, the others are allowed to finish and the first error is thrown. When the caller stops
 * early (`return()`, or a throw in its loop body), `abandon` is called first (to abort the tasks' signal)
 * and the generator still waits for every task before it ends: nothing keeps running behind its back.
 */
export async function* settleEach<T>(
  tasks: readonly (() => Promise<T>)[],
  bound: number,
  abandon?: () => void,
): AsyncGenerator<Settled<T>, void, undefined> {
  const queue: Settled<T>[] = [];
  let failed = false;
  let wake: () => void = () => {};
  const tracked = tasks.map((task, index) => async (): Promise<void> => {
    try {
      queue.push({ index, value: await task() });
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      wake();
    }
  });
  const all = runBounded(tracked, bound);
  // Every path below awaits `all`; this only keeps a rejection that arrives first from counting as unhandled.
  all.catch(() => {});
  let delivered = 0;
  let finished = false;
  try {
    while (delivered < tasks.length && !failed) {
      const next = queue.shift();
      if (next === undefined) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      delivered += 1;
      yield next;
    }
    finished = true;
    await all;
  } finally {
    if (!finished) {
      abandon?.();
      await all.catch(() => {});
    }
  }
}
