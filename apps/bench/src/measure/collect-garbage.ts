/**
 * A full collection between runs (node --expose-gc), so that garbage one system left behind is not
 * collected on the next system's time. Without the flag this does nothing and the report says so.
 */
export function collectGarbage(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) return false;
  gc();
  return true;
}
