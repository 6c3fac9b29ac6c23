import type { StopReason, UnifiedStopReason } from '@toolcircuit/core';

const UNIFIED: Readonly<Record<string, UnifiedStopReason>> = {
  end_turn: 'end_turn',
  tool_use: 'tool_calls',
  max_tokens: 'max_tokens',
  stop_sequence: 'stop_sequence',
  pause_turn: 'pause',
  refusal: 'refusal',
  model_context_window_exceeded: 'context_window_exceeded',
};

/**
 * Maps a Messages API `stop_reason` to the unified value, keeping the raw one.
 * A turn that holds tool calls but ended "normally" is reported as `tool_calls`, so the loop does not
 * depend on which of the two the model chose; `max_tokens` and the others are kept as they are because
 * they mean the calls may be unusable.
 *
 * @see https://docs.claude.com/en/api/handling-stop-reasons
 */
export function mapAnthropicStopReason(raw: string | null | undefined, hasToolCalls: boolean): StopReason {
  if (raw === null || raw === undefined) return { unified: 'other', raw: undefined };
  const unified = UNIFIED[raw] ?? 'other';
  if (hasToolCalls && (unified === 'end_turn' || unified === 'stop_sequence')) return { unified: 'tool_calls', raw };
  return { unified, raw };
}
