import type { StopReason, UnifiedStopReason } from '@toolcircuit/core';

const UNIFIED: Readonly<Record<string, UnifiedStopReason>> = {
  STOP: 'end_turn',
  MAX_TOKENS: 'max_tokens',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
  IMAGE_PROHIBITED_CONTENT: 'content_filter',
  IMAGE_RECITATION: 'content_filter',
  MALFORMED_FUNCTION_CALL: 'malformed_tool_call',
  UNEXPECTED_TOOL_CALL: 'malformed_tool_call',
};

/**
 * Gemini's `finishReason` → unified stop reason. Gemini says `STOP` even when the turn holds function
 * calls, so the presence of calls decides `tool_calls`. A prompt blocked before any candidate exists has
 * no finishReason, only `promptFeedback.blockReason`, reported raw as `blockReason:<value>`.
 *
 * @see https://ai.google.dev/api/generate-content#FinishReason
 */
export function mapGoogleStopReason(input: {
  readonly finishReason: string | undefined;
  readonly blockReason: string | undefined;
  readonly hasToolCalls: boolean;
}): StopReason {
  const { finishReason, blockReason, hasToolCalls } = input;
  if (finishReason === undefined && blockReason !== undefined) {
    return { unified: 'content_filter', raw: `blockReason:${blockReason}` };
  }
  if (hasToolCalls && (finishReason === undefined || finishReason === 'STOP')) {
    return { unified: 'tool_calls', raw: finishReason };
  }
  return { unified: (finishReason === undefined ? undefined : UNIFIED[finishReason]) ?? 'other', raw: finishReason };
}
