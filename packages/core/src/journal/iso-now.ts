let lastMs = Number.NaN;
let lastText = '';

/**
 * `new Date().toISOString()`, made once per millisecond: a journaled call stamps its start, and a turn's
 * calls mostly start within the same millisecond, where formatting the date again is most of the stamp's
 * cost. The text is exactly what `toISOString` gives for `Date.now()`.
 */
export function isoNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastText = new Date(now).toISOString();
  }
  return lastText;
}
