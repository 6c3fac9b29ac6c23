import type { JsonValue } from '@toolcircuit/core';
import { arrayAt, isRecord, recordAt, stringAt } from '../cassettes/json-access.js';
import type { ConformanceWire, TurnPosition } from './conformance-wire.js';
import { fieldsOf, isJsonText, listOf, textHolds } from './reply-problems.js';
import { syntheticToken } from './synthetic-token.js';
import { argumentsText } from './wire-arguments.js';

const MODEL = 'gpt-4.1';

/**
 * Chat Completions: calls are `message.tool_calls` (`call_…` id, `arguments` as JSON text, which may not
 * parse), `finish_reason` `tool_calls`; results go back as one `tool` message per call, consecutive, right
 * after the assistant message. Tool messages have no error flag.
 * @see https://platform.openai.com/docs/guides/function-calling
 */
export const openaiChatConformanceWire: ConformanceWire = {
  protocol: 'openai-chat',
  model: MODEL,
  path: '/v1/chat/completions',
  shapeReferences: ['openai-chat/pydantic-ai__test_openai_tool_output'],
  responseHeaders: { 'content-type': 'application/json' },

  callIds: (position) =>
    position.turn.calls.map((_, index) => `call_${syntheticToken(seed(position, `call-${index}`), 24)}`),

  responseBody(position) {
    const { turn, turnIndex } = position;
    const ids = openaiChatConformanceWire.callIds(position);
    const message: { [key: string]: JsonValue } = {
      role: 'assistant',
      content: turn.text ?? null,
      refusal: null,
      annotations: [],
    };
    if (turn.calls.length > 0) {
      message['tool_calls'] = turn.calls.map((call, index) => ({
        id: ids[index] ?? '',
        type: 'function',
        function: { name: call.name, arguments: argumentsText(call) },
      }));
    }
    const promptTokens = 180 + 90 * turnIndex;
    const completionTokens = 15 + 25 * turn.calls.length;
    return {
      id: `chatcmpl-${syntheticToken(seed(position, 'completion'), 29)}`,
      object: 'chat.completion',
      created: 1767225600 + turnIndex,
      model: `${MODEL}-2025-04-14`,
      choices: [{ index: 0, message, logprobs: null, finish_reason: turn.calls.length > 0 ? 'tool_calls' : 'stop' }],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
      service_tier: 'default',
      system_fingerprint: `fp_${syntheticToken(seed(position, 'fingerprint'), 10, 'hex')}`,
    };
  },

  declaredToolNames: (body) =>
    arrayAt(body, 'tools').map((tool) => stringAt(recordAt(tool, 'function'), 'name') ?? '(no name)'),

  replyProblems(body, previous, results) {
    const problems: string[] = [];
    const ids = openaiChatConformanceWire.callIds(previous);
    const messages = arrayAt(body, 'messages');
    const replies = messages.slice(-ids.length);
    const assistant = messages.at(-ids.length - 1);

    if (stringAt(assistant, 'role') !== 'assistant')
      problems.push('the message before the results is not the assistant turn');
    const calls = arrayAt(assistant, 'tool_calls');
    if (listOf(fieldsOf(calls, 'id')) !== listOf(ids)) {
      problems.push(
        `the assistant turn re-sends tool_call ids ${listOf(fieldsOf(calls, 'id'))}, expected ${listOf(ids)}`,
      );
    }
    calls.forEach((call, index) => {
      const fn = recordAt(call, 'function');
      if (stringAt(fn, 'name') !== previous.turn.calls[index]?.name)
        problems.push(`re-sent tool_call ${index} has the wrong name`);
      if (!isJsonText(stringAt(fn, 'arguments')))
        problems.push(`re-sent tool_call ${index} has arguments that are not JSON`);
    });

    ids.forEach((id, index) => {
      const message = replies[index];
      if (!isRecord(message) || message['role'] !== 'tool') {
        problems.push(`message ${index} after the assistant turn is not a tool message (results must be consecutive)`);
        return;
      }
      if (message['tool_call_id'] !== id) {
        problems.push(`tool message ${index} answers ${String(message['tool_call_id'])}, expected ${String(id)}`);
      }
      // No error flag exists on the wire: the adapter says it in the text, which must still hold the result.
      if (!textHolds(message['content'], results[index])) {
        problems.push(`tool message ${index} does not carry the result's text`);
      }
    });
    return problems;
  },
};

function seed(position: TurnPosition, what: string): string {
  return `openai-chat/${position.scenarioId}/${position.turnIndex}/${what}`;
}
