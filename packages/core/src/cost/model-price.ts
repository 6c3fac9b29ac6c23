/**
 * What one model costs, in US dollars per million tokens, with where the figures come from and when they
 * were read: prices change, and a row that does not say its source and date cannot be checked.
 */
export interface ModelPrice {
  /** The adapter family (`anthropic`, `openai`, `google`…), as `Model.provider`. */
  readonly provider: string;
  /** The model id as the application names it; a dated id (`…-20250929`, `…-2025-04-14`) finds its row. */
  readonly model: string;
  /** Input tokens not read from or written to a cache. */
  readonly inputPerMTok: number;
  /** Output tokens, reasoning included unless `reasoningPerMTok` says otherwise. */
  readonly outputPerMTok: number;
  /** Input tokens read from the provider's cache; absent: unknown (a run that reads the cache costs "unknown"). */
  readonly cacheReadPerMTok?: number;
  /** Input tokens written to the cache (Anthropic's 5-minute cache writes); absent: unknown. */
  readonly cacheWritePerMTok?: number;
  /** Reasoning tokens, where they are billed apart from output. */
  readonly reasoningPerMTok?: number;
  /** A fee per request, where there is one. */
  readonly perRequestUsd?: number;
  /**
   * Rates for a request whose prompt is longer than `aboveInputTokens` (every input token, cached or not):
   * the whole request is billed at them, as providers with a long-prompt tier bill it. Absent: one rate at
   * every length.
   */
  readonly longPrompt?: LongPromptPrice;
  /** Where the figures were read (a URL). */
  readonly source: string;
  /** When they were read there (`YYYY-MM-DD`). */
  readonly asOf: string;
}

/** The rates of a long-prompt tier; a rate left out is unknown at that length, as in the row itself. */
export interface LongPromptPrice {
  readonly aboveInputTokens: number;
  readonly inputPerMTok: number;
  readonly outputPerMTok: number;
  readonly cacheReadPerMTok?: number;
  readonly cacheWritePerMTok?: number;
}
