type GcFunction = (options?: { readonly type?: 'major' | 'minor'; readonly execution?: 'sync' | 'async' }) => void;

/** Heap growth since the last full collection that earns the next run a full one. */
const FULL_COLLECTION_GROWTH = 16 * 2 ** 20;
let heapAfterFullCollection = 0;

/**
 * Called before every timed run (node --expose-gc), so that garbage one system left behind is not
 * collected on the next system's time. A young-generation collection always; a full one only when the
 * heap grew by 16 MB since the last: a full GC costs ~100 ms on this machine even on a small heap, and
 * toolcircuit's and the floor's runs leave far less than that behind. Without the flag this does nothing
 * and the report says so.
 */
export function collectGarbage(): boolean {
  const gc = (globalThis as { gc?: GcFunction }).gc;
  if (gc === undefined) return false;
  if (process.memoryUsage().heapUsed - heapAfterFullCollection > FULL_COLLECTION_GROWTH) {
    gc({ type: 'major' });
    heapAfterFullCollection = process.memoryUsage().heapUsed;
  } else {
    gc({ type: 'minor' });
  }
  return true;
}
