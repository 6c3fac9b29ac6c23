/** The part of `Headers` (or an SDK's header map) that retry hints are read from. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * How long a provider asked us to wait before retrying, in milliseconds: `retry-after-ms` (OpenAI and
 * Anthropic send it) wins over the standard `retry-after`, which is either seconds or an HTTP date.
 * `undefined` when absent or unusable, so callers never wait on a guess.
 */
export function retryAfterMs(headers: HeaderReader, now: () => number = Date.now): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number.parseFloat(ms);
  const after = headers.get('retry-after');
  if (after === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(after)) return Number.parseFloat(after) * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}
