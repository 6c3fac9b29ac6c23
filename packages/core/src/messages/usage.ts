export interface Usage {
  readonly inputTokens: number | undefined;
  readonly outputTokens: number | undefined;
  readonly totalTokens: number | undefined;
  readonly cachedInputTokens?: number | undefined;
  readonly reasoningTokens?: number | undefined;
}

export const emptyUsage: Usage = Object.freeze({
  inputTokens: undefined,
  outputTokens: undefined,
  totalTokens: undefined,
});

/** Sums two usages field by field; a field stays `undefined` only while no turn has reported it. */
export function addUsage(total: Usage, turn: Usage): Usage {
  const sum = (a: number | undefined, b: number | undefined): number | undefined =>
    a === undefined ? b : b === undefined ? a : a + b;
  const cached = sum(total.cachedInputTokens, turn.cachedInputTokens);
  const reasoning = sum(total.reasoningTokens, turn.reasoningTokens);
  return {
    inputTokens: sum(total.inputTokens, turn.inputTokens),
    outputTokens: sum(total.outputTokens, turn.outputTokens),
    totalTokens: sum(total.totalTokens, turn.totalTokens),
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
  };
}
