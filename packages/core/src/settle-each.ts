import { type Eventually, isPromiseLike } from './eventually.js';

export interface Settled<T> {
  /** The task's position in the list it was given in. */
  readonly index: number;
  readonly value: T;
}

/**
 * Runs tasks with at most `bound` of them waiting at a time and hands each result to `deliver` as soon as
 * its task settles (in settle order, with its index), one delivery at a time, while slower tasks still run.
 * A task that answers at once takes no slot and no promise: while every task and every delivery answers at
 * once, the whole list settles synchronously.
 *
 * A task that throws: no further task starts, the running ones are allowed to finish, and the first error is
 * thrown. A delivery that throws (the caller stops): `abandon` is called first (to abort the tasks' signal),
 * no further task starts, and the running ones are awaited before the error is thrown: nothing keeps
 * running behind the caller's back.
 */
export function settleEach<T>(
  tasks: readonly (() => Eventually<T>)[],
  bound: number,
  deliver: (settled: Settled<T>) => Eventually<void>,
  abandon?: () => void,
): Eventually<void> {
  return settleFrom(0, tasks, bound, deliver, abandon);
}

/** The synchronous path, from `from` on, until a task or a delivery has to wait. */
function settleFrom<T>(
  from: number,
  tasks: readonly (() => Eventually<T>)[],
  bound: number,
  deliver: (settled: Settled<T>) => Eventually<void>,
  abandon: (() => void) | undefined,
): Eventually<void> {
  for (let index = from; index < tasks.length; index += 1) {
    // Nothing else is running here, so a task's throw simply propagates.
    const value = (tasks[index] as () => Eventually<T>)();
    if (isPromiseLike(value)) return settleConcurrently(index, value, tasks, bound, deliver, abandon);
    let delivered: Eventually<void>;
    try {
      delivered = deliver({ index, value });
    } catch (error) {
      abandon?.();
      throw error;
    }
    if (isPromiseLike(delivered)) {
      return Promise.resolve(delivered).then(
        () => settleFrom(index + 1, tasks, bound, deliver, abandon),
        (error: unknown) => {
          abandon?.();
          throw error;
        },
      );
    }
  }
}

/** From the first task that has to wait: up to `bound` waiting tasks, deliveries one at a time. */
async function settleConcurrently<T>(
  first: number,
  firstValue: PromiseLike<T>,
  tasks: readonly (() => Eventually<T>)[],
  bound: number,
  deliver: (settled: Settled<T>) => Eventually<void>,
  abandon: (() => void) | undefined,
): Promise<void> {
  const ready: Settled<T>[] = [];
  const waiting = new Set<Promise<void>>();
  let failure: { readonly error: unknown } | undefined;
  let stopped = false;
  let next = first + 1;
  let wake: (() => void) | undefined;

  const track = (index: number, pending: PromiseLike<T>): void => {
    const settled: Promise<void> = Promise.resolve(pending)
      .then(
        (value) => {
          ready.push({ index, value });
        },
        (error: unknown) => {
          failure ??= { error };
        },
      )
      .finally(() => {
        waiting.delete(settled);
        // A freed slot starts the next task at once, even while a slow delivery is still in progress.
        startMore();
        wake?.();
      });
    waiting.add(settled);
  };
  const startMore = (): void => {
    while (failure === undefined && !stopped && next < tasks.length && waiting.size < bound) {
      const index = next;
      next += 1;
      let value: Eventually<T>;
      try {
        value = (tasks[index] as () => Eventually<T>)();
      } catch (error) {
        failure ??= { error };
        return;
      }
      if (isPromiseLike(value)) track(index, value);
      else ready.push({ index, value });
    }
  };

  track(first, firstValue);
  startMore();
  let delivered = first;
  try {
    while (delivered < tasks.length && failure === undefined) {
      const item = ready.shift();
      if (item === undefined) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      delivered += 1;
      const pending = deliver(item);
      if (isPromiseLike(pending)) await pending;
    }
  } catch (error) {
    stopped = true;
    abandon?.();
    await Promise.all(waiting);
    throw error;
  }
  await Promise.all(waiting);
  if (failure !== undefined) throw failure.error;
}
