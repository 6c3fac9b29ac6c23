import type { Usage } from '@toolcircuit/core';
import type { GeminiUsageMetadata } from './google-api.js';

/**
 * Gemini counts thinking apart from the answer (`thoughtsTokenCount` is not in `candidatesTokenCount`);
 * the unified `outputTokens` includes it, as Anthropic's and OpenAI's output counts do, and
 * `reasoningTokens` says how much of it was thinking.
 */
export function mapGoogleUsage(usage: GeminiUsageMetadata | undefined): Usage {
  const candidates = usage?.candidatesTokenCount;
  const thoughts = usage?.thoughtsTokenCount;
  return {
    inputTokens: usage?.promptTokenCount,
    outputTokens: candidates === undefined && thoughts === undefined ? undefined : (candidates ?? 0) + (thoughts ?? 0),
    totalTokens: usage?.totalTokenCount,
    cachedInputTokens: usage?.cachedContentTokenCount,
    reasoningTokens: thoughts,
  };
}
