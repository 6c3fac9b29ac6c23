import type { JsonValue } from '@toolcircuit/core';
import { arrayAt, isRecord, stringAt } from '../cassettes/json-access.js';
import type { ConformanceWire, TurnPosition } from './conformance-wire.js';
import { fieldsOf, listOf, textHolds, turnAndReply } from './reply-problems.js';
import { syntheticToken } from './synthetic-token.js';

const MODEL = 'claude-sonnet-4-6';

/**
 * Messages API: calls are `tool_use` blocks (`toolu_…` id, decoded `input`), `stop_reason` `tool_use`;
 * results go back as ONE user message whose first blocks are the `tool_result`s, in call order.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use
 */
export const anthropicConformanceWire: ConformanceWire = {
  protocol: 'anthropic-messages',
  model: MODEL,
  path: '/v1/messages',
  shapeReferences: [
    'anthropic/pydantic-ai__test_multiple_parallel_tool_calls',
    'anthropic/vercel-ai__anthropic-tool-no-args',
  ],
  responseHeaders: { 'content-type': 'application/json' },

  callIds: (position) =>
    position.turn.calls.map((_, index) => `toolu_01${syntheticToken(seed(position, `call-${index}`), 22)}`),

  responseBody(position) {
    const { turn, turnIndex } = position;
    const ids = anthropicConformanceWire.callIds(position);
    const content: JsonValue[] = [];
    if (turn.text !== undefined) content.push({ type: 'text', text: turn.text });
    turn.calls.forEach((call, index) => {
      content.push({ type: 'tool_use', id: ids[index] ?? '', name: call.name, input: call.arguments });
    });
    return {
      id: `msg_01${syntheticToken(seed(position, 'message'), 22)}`,
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content,
      stop_reason: turn.calls.length > 0 ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: 600 + 150 * turnIndex,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 20 + 40 * turn.calls.length,
        service_tier: 'standard',
      },
    };
  },

  declaredToolNames: (body) => arrayAt(body, 'tools').map((tool) => stringAt(tool, 'name') ?? '(no name)'),

  replyProblems(body, previous, results) {
    const problems: string[] = [];
    const ids = anthropicConformanceWire.callIds(previous);
    const { turn: assistant, reply } = turnAndReply(body, 'messages', 'assistant', problems);
    const uses = arrayAt(assistant, 'content').filter((block) => stringAt(block, 'type') === 'tool_use');
    if (listOf(fieldsOf(uses, 'id')) !== listOf(ids)) {
      problems.push(
        `the assistant turn re-sends tool_use ids ${listOf(fieldsOf(uses, 'id'))}, expected ${listOf(ids)}`,
      );
    }

    if (stringAt(reply, 'role') !== 'user') problems.push('the results are not in a user message');
    const blocks = arrayAt(reply, 'content');
    ids.forEach((id, index) => {
      const block = blocks[index];
      if (!isRecord(block) || block['type'] !== 'tool_result') {
        problems.push(`block ${index} of the user message is not a tool_result (results must come first)`);
        return;
      }
      if (block['tool_use_id'] !== id) {
        problems.push(`tool_result ${index} answers ${String(block['tool_use_id'])}, expected ${String(id)}`);
      }
      const expected = results[index];
      if (block['is_error'] !== expected?.isError) {
        problems.push(
          `tool_result ${index} has is_error ${String(block['is_error'])}, expected ${String(expected?.isError)}`,
        );
      }
      if (!textHolds(block['content'], expected))
        problems.push(`tool_result ${index} does not carry the result's text`);
    });
    const extra = blocks.slice(ids.length).filter((block) => stringAt(block, 'type') === 'tool_result').length;
    if (extra > 0) problems.push(`the user message has ${extra} tool_result block(s) more than there were calls`);
    return problems;
  },
};

function seed(position: TurnPosition, what: string): string {
  return `anthropic/${position.scenarioId}/${position.turnIndex}/${what}`;
}
