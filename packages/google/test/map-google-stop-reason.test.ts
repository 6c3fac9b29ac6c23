import { describe, expect, it } from 'vitest';
import { mapGoogleStopReason } from '../src/index.js';

describe('mapGoogleStopReason', () => {
  it.each([
    ['STOP', true, 'tool_calls'],
    [undefined, true, 'tool_calls'],
    ['STOP', false, 'end_turn'],
    ['MAX_TOKENS', true, 'max_tokens'],
    ['MAX_TOKENS', false, 'max_tokens'],
    ['SAFETY', false, 'content_filter'],
    ['PROHIBITED_CONTENT', false, 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', false, 'malformed_tool_call'],
    ['UNEXPECTED_TOOL_CALL', false, 'malformed_tool_call'],
    ['TOO_MANY_TOOL_CALLS', false, 'other'],
    ['SOMETHING_NEW', false, 'other'],
    [undefined, false, 'other'],
  ] as const)('%s with calls=%s → %s, raw kept', (finishReason, hasToolCalls, unified) => {
    expect(mapGoogleStopReason({ finishReason, blockReason: undefined, hasToolCalls })).toEqual({
      unified,
      raw: finishReason,
    });
  });
});
