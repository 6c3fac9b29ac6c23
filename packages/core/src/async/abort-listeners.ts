interface Listeners {
  readonly set: Set<() => void>;
}

const bySignal = new WeakMap<AbortSignal, Listeners>();

/**
 * Calls `onAbort` once when `signal` aborts, until the returned function is called. Every caller on the same
 * signal shares ONE 'abort' listener (added the first time, removed by the abort itself): a run's calls each
 * listened on the loop's signal, and adding and removing an EventTarget listener per call cost more than the
 * rest of an async call's bookkeeping. A signal that is already aborted is not listened to (check first).
 */
export function listenForAbort(signal: AbortSignal, onAbort: () => void): () => void {
  const set = abortListenersOf(signal);
  set.add(onAbort);
  return () => {
    set.delete(onAbort);
  };
}

/**
 * The set of `signal`'s shared listeners (see {@link listenForAbort}): add a listener to it, delete it to stop
 * listening, with no stop function made per caller.
 */
export function abortListenersOf(signal: AbortSignal): Set<() => void> {
  let listeners = bySignal.get(signal);
  if (listeners === undefined) {
    const created: Listeners = { set: new Set() };
    bySignal.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        // A copy: a listener may stop listening (or another start) while the others are called.
        for (const listener of [...created.set]) listener();
        created.set.clear();
      },
      { once: true },
    );
    listeners = created;
  }
  return listeners.set;
}
