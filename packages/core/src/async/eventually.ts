/**
 * A value now, or a promise of it. The circuit's hot path (validate, check, run a synchronous tool, answer)
 * stays synchronous when every step answers at once: a promise per step, per call, is most of what a loop
 * costs next to a hand-written one. Anything that may wait (an async tool, a confirmation store, a journal,
 * a hook) simply returns a promise, and the rest of that call continues after it.
 */
export type Eventually<T> = T | Promise<T>;

export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** `next(value)` at once when `value` is not a promise; otherwise once it settles. */
export function andThen<T, U>(value: T | PromiseLike<T>, next: (value: T) => Eventually<U>): Eventually<U> {
  return isPromiseLike(value) ? Promise.resolve(value).then(next) : next(value);
}
