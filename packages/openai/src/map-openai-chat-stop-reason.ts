import type { StopReason } from '@toolcircuit/core';

/**
 * Chat Completions `finish_reason` → unified stop reason, keeping the raw value. Some compatible servers say
 * `stop` even when the message holds tool calls, so calls win over `stop`. A missing finish reason (a
 * non-conforming response) reads as a broken turn; a stream without one ends with an `error` event instead.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 */
export function mapOpenAIChatStopReason(finishReason: string | null | undefined, hasToolCalls: boolean): StopReason {
  const raw = finishReason ?? undefined;
  switch (finishReason) {
    case 'stop':
      return { unified: hasToolCalls ? 'tool_calls' : 'end_turn', raw };
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool_calls', raw };
    case 'length':
      return { unified: 'max_tokens', raw };
    case 'content_filter':
      return { unified: 'content_filter', raw };
    case null:
    case undefined:
      return { unified: 'error', raw };
    default:
      return { unified: hasToolCalls ? 'tool_calls' : 'other', raw };
  }
}
