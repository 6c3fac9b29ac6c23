export interface Usage {
  readonly inputTokens: number | undefined;
  readonly outputTokens: number | undefined;
  readonly totalTokens: number | undefined;
  /** Of `inputTokens`, those read from the provider's cache. */
  readonly cachedInputTokens?: number | undefined;
  /** Of `inputTokens`, those written to the provider's cache (Anthropic reports them; present when some were). */
  readonly cacheWriteInputTokens?: number | undefined;
  readonly reasoningTokens?: number | undefined;
}

export const emptyUsage: Usage = Object.freeze({
  inputTokens: undefined,
  outputTokens: undefined,
  totalTokens: undefined,
});

/** Sums two usages field by field; a field stays `undefined` only while no turn has reported it. */
export function addUsage(total: Usage, turn: Usage): Usage {
  // Added once per turn: the optional fields are assigned, not spread from `{}` or `{ key }` (no throw-away
  // objects), and the same key order as before.
  const sum: Writable<Usage> = {
    inputTokens: sumOf(total.inputTokens, turn.inputTokens),
    outputTokens: sumOf(total.outputTokens, turn.outputTokens),
    totalTokens: sumOf(total.totalTokens, turn.totalTokens),
  };
  const cached = sumOf(total.cachedInputTokens, turn.cachedInputTokens);
  if (cached !== undefined) sum.cachedInputTokens = cached;
  const cacheWrite = sumOf(total.cacheWriteInputTokens, turn.cacheWriteInputTokens);
  if (cacheWrite !== undefined) sum.cacheWriteInputTokens = cacheWrite;
  const reasoning = sumOf(total.reasoningTokens, turn.reasoningTokens);
  if (reasoning !== undefined) sum.reasoningTokens = reasoning;
  return sum;
}

function sumOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : a + b;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };
