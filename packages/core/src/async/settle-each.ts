import { type Eventually, isPromiseLike } from './eventually.js';

export interface Settled<T> {
  /** The task's position in the list it was given in. */
  readonly index: number;
  readonly value: T;
}

/** What to do with each result: `record` as soon as its task settles, `deliver` one at a time after. */
export interface SettleHandlers<T> {
  /** Called at once when a task settles (before it is delivered, also if it is never delivered). */
  readonly record?: ((index: number, value: T) => void) | undefined;
  /** Absent when nobody is told (no hook, no reader): the tasks are then only run and recorded. */
  readonly deliver: ((index: number, value: T) => Eventually<void>) | undefined;
  /** Called before waiting for the running tasks when a delivery throws (to abort their signal). */
  readonly abandon?: (() => void) | undefined;
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
  handlers: SettleHandlers<T>,
): Eventually<void> {
  return settleFrom(0, tasks, bound, handlers);
}

/** The synchronous path, from `from` on, until a task or a delivery has to wait. */
function settleFrom<T>(
  from: number,
  tasks: readonly (() => Eventually<T>)[],
  bound: number,
  handlers: SettleHandlers<T>,
): Eventually<void> {
  const { record, deliver, abandon } = handlers;
  for (let index = from; index < tasks.length; index += 1) {
    // Nothing else is running here, so a task's throw simply propagates.
    const value = (tasks[index] as () => Eventually<T>)();
    if (isPromiseLike(value)) {
      return deliver === undefined
        ? settleUndelivered(index, value, tasks, bound, record)
        : settleConcurrently(index, value, tasks, bound, deliver, handlers);
    }
    record?.(index, value);
    if (deliver === undefined) continue;
    let delivered: Eventually<void>;
    try {
      delivered = deliver(index, value);
    } catch (error) {
      abandon?.();
      throw error;
    }
    if (isPromiseLike(delivered)) {
      return Promise.resolve(delivered).then(
        () => settleFrom(index + 1, tasks, bound, handlers),
        (error: unknown) => {
          abandon?.();
          throw error;
        },
      );
    }
  }
}

/**
 * From the first task that has to wait: up to `bound` waiting tasks, deliveries one at a time. Each waiting
 * task costs one `then` (no `finally`, no set of promises): a count says how many are still running, and
 * `idle` is resolved when it falls to zero after a failure or a stop.
 */
async function settleConcurrently<T>(
  first: number,
  firstValue: PromiseLike<T>,
  tasks: readonly (() => Eventually<T>)[],
  bound: number,
  deliver: (index: number, value: T) => Eventually<void>,
  handlers: SettleHandlers<T>,
): Promise<void> {
  const { record, abandon } = handlers;
  // The last task, and nothing else running (every earlier one answered at once): no pool, no queue, no
  // wake-up; its promise, then its delivery. A stream with one call per turn takes this path every turn.
  if (first === tasks.length - 1) {
    const value = await firstValue;
    record?.(first, value);
    try {
      const pending = deliver(first, value);
      if (isPromiseLike(pending)) await pending;
    } catch (error) {
      abandon?.();
      throw error;
    }
    return;
  }
  const ready: Settled<T>[] = [];
  let wake: (() => void) | undefined;
  let idle: (() => void) | undefined;
  const pool: TaskPool<T> = new TaskPool(
    tasks,
    first + 1,
    bound,
    (index, value) => {
      record?.(index, value);
      ready.push({ index, value });
    },
    () => {
      if (pool.running === 0) idle?.();
      const waiting = wake;
      wake = undefined;
      waiting?.();
    },
  );
  const allSettled = (): Promise<void> | undefined =>
    pool.running === 0
      ? undefined
      : new Promise<void>((resolve) => {
          idle = resolve;
        });

  pool.track(first, firstValue);
  pool.startMore();
  let delivered = first;
  try {
    while (delivered < tasks.length && pool.failure === undefined) {
      const item = ready.shift();
      if (item === undefined) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      delivered += 1;
      const pending = deliver(item.index, item.value);
      if (isPromiseLike(pending)) await pending;
    }
  } catch (error) {
    pool.stopped = true;
    abandon?.();
    await allSettled();
    throw error;
  }
  await allSettled();
  if (pool.failure !== undefined) throw pool.failure.error;
}

/**
 * {@link settleConcurrently} when nothing is delivered: no queue of settled results and no wake-up per
 * settlement, only the pool's count of running tasks and one promise, settled when the last one is done
 * (with the first error, if any, as there: no further task starts after it, the running ones finish).
 */
function settleUndelivered<T>(
  first: number,
  firstValue: PromiseLike<T>,
  tasks: readonly (() => Eventually<T>)[],
  bound: number,
  record: ((index: number, value: T) => void) | undefined,
): Promise<void> {
  // The last task, and nothing else running (every earlier one answered at once): its own promise, one
  // `then`, is all there is to wait for; no pool, no promise of our own. A loop with one call per turn
  // takes this path every turn.
  if (first === tasks.length - 1) {
    return Promise.resolve(firstValue).then((value) => {
      record?.(first, value);
    });
  }
  return new Promise<void>((resolve, reject) => {
    const pool: TaskPool<T> = new TaskPool(tasks, first + 1, bound, record ?? (() => {}), () => {
      if (pool.running > 0) return;
      if (pool.failure === undefined) resolve();
      else reject(pool.failure.error);
    });
    pool.track(first, firstValue);
    pool.startMore();
  });
}

/**
 * The tasks from `next` on, at most `bound` of them waiting at a time. Each waiting task costs one `then`
 * (no `finally`, no set of promises): a count says how many are still running. `settled` sees each result
 * (a synchronous one at once); `released` is called each time a waiting task is done, after a freed slot
 * started the next task. A task that throws or rejects stops further starts; so does `stopped`.
 */
class TaskPool<T> {
  running = 0;
  failure: { readonly error: unknown } | undefined;
  stopped = false;

  constructor(
    private readonly tasks: readonly (() => Eventually<T>)[],
    private next: number,
    private readonly bound: number,
    private readonly settled: (index: number, value: T) => void,
    private readonly released: () => void,
  ) {}

  track(index: number, pending: PromiseLike<T>): void {
    this.running += 1;
    Promise.resolve(pending).then(
      (value) => {
        try {
          this.settled(index, value);
        } finally {
          this.release();
        }
      },
      (error: unknown) => {
        this.failure ??= { error };
        this.release();
      },
    );
  }

  /** A freed slot starts the next task at once, even while a slow delivery is still in progress. */
  startMore(): void {
    while (this.failure === undefined && !this.stopped && this.next < this.tasks.length && this.running < this.bound) {
      const index = this.next;
      this.next += 1;
      let value: Eventually<T>;
      try {
        value = (this.tasks[index] as () => Eventually<T>)();
      } catch (error) {
        this.failure ??= { error };
        return;
      }
      if (isPromiseLike(value)) this.track(index, value);
      else this.settled(index, value);
    }
  }

  private release(): void {
    this.running -= 1;
    this.startMore();
    this.released();
  }
}
