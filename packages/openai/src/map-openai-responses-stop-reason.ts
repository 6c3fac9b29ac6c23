import type { StopReason } from '@toolcircuit/core';

/**
 * The Responses API has no finish reason: it is derived from `status`, `incomplete_details.reason` and
 * whether the output holds function calls. Raw values read `completed`, `incomplete:max_output_tokens`…
 * An `undefined` status (a response without one) reads as a broken turn; a stream that ends before its final
 * response event never gets here, it ends with an `error` event.
 *
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-status
 */
export function mapOpenAIResponsesStopReason(
  status: string | undefined,
  incompleteReason: string | undefined,
  hasToolCalls: boolean,
): StopReason {
  switch (status) {
    case 'completed':
      return { unified: hasToolCalls ? 'tool_calls' : 'end_turn', raw: status };
    case 'incomplete': {
      const raw = `incomplete:${incompleteReason ?? 'unknown'}`;
      if (incompleteReason === 'max_output_tokens') return { unified: 'max_tokens', raw };
      if (incompleteReason === 'content_filter') return { unified: 'content_filter', raw };
      return { unified: 'other', raw };
    }
    case 'failed':
      return { unified: 'error', raw: status };
    case undefined:
      return { unified: 'error', raw: undefined };
    default:
      // cancelled, queued, in_progress (background mode): nothing usable came back.
      return { unified: 'other', raw: status };
  }
}
