/**
 * Resolves when `done()` holds or the signal fires, checking every `intervalMs`. The replay server and
 * the recorder expose counters, not events, and a CLI waiting on them can afford a 50 ms poll.
 */
export function waitUntil(done: () => boolean, signal: AbortSignal, intervalMs = 50): Promise<void> {
  return new Promise((resolve) => {
    if (done() || signal.aborted) {
      resolve();
      return;
    }
    const finish = () => {
      clearInterval(timer);
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const timer = setInterval(() => {
      if (done()) finish();
    }, intervalMs);
    signal.addEventListener('abort', finish, { once: true });
  });
}
