import type { JsonValue } from '@toolcircuit/core';
import { arrayAt, isRecord, stringAt } from '../cassettes/json-access.js';
import { createConformanceCatalogue } from './conformance-catalogue.js';
import type { ConformanceWire, TurnPosition } from './conformance-wire.js';
import { fieldsOf, isJsonText, listOf, textHolds } from './reply-problems.js';
import { syntheticToken } from './synthetic-token.js';
import { argumentsText } from './wire-arguments.js';

const MODEL = 'gpt-4.1';

/**
 * Responses API: calls are `function_call` output items (item id `fc_…`, `call_id` `call_…`, `arguments`
 * as JSON text); no finish reason, `status` says it. Results go back as `function_call_output` input items
 * after the re-sent `function_call` items.
 * @see https://platform.openai.com/docs/guides/function-calling?api-mode=responses
 */
export const openaiResponsesConformanceWire: ConformanceWire = {
  protocol: 'openai-responses',
  model: MODEL,
  path: '/v1/responses',
  shapeReferences: ['openai-responses/pydantic-ai__test_openai_responses_model_simple_response_with_tool_call'],
  responseHeaders: { 'content-type': 'application/json' },

  callIds: (position) =>
    position.turn.calls.map((_, index) => `call_${syntheticToken(seed(position, `call-${index}`), 24)}`),

  responseBody(position) {
    const { turn, turnIndex } = position;
    const ids = openaiResponsesConformanceWire.callIds(position);
    const output: JsonValue[] = [];
    if (turn.text !== undefined) {
      output.push({
        id: `msg_${syntheticToken(seed(position, 'message'), 50, 'hex')}`,
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', annotations: [], logprobs: [], text: turn.text }],
      });
    }
    turn.calls.forEach((call, index) => {
      output.push({
        id: `fc_${syntheticToken(seed(position, `item-${index}`), 50, 'hex')}`,
        type: 'function_call',
        status: 'completed',
        arguments: argumentsText(call),
        call_id: ids[index] ?? '',
        name: call.name,
      });
    });
    const inputTokens = 210 + 95 * turnIndex;
    const outputTokens = 15 + 25 * turn.calls.length;
    return {
      id: `resp_${syntheticToken(seed(position, 'response'), 50, 'hex')}`,
      object: 'response',
      created_at: 1767225600 + turnIndex,
      status: 'completed',
      background: false,
      error: null,
      incomplete_details: null,
      instructions: null,
      max_output_tokens: null,
      max_tool_calls: null,
      model: `${MODEL}-2025-04-14`,
      output,
      parallel_tool_calls: true,
      previous_response_id: null,
      reasoning: { effort: null, summary: null },
      service_tier: 'default',
      store: false,
      temperature: 1,
      text: { format: { type: 'text' }, verbosity: 'medium' },
      tool_choice: 'auto',
      // The API echoes the request's tools; these are the catalogue's, as a non-strict request declares them.
      tools: echoedTools(),
      top_logprobs: 0,
      top_p: 1,
      truncation: 'disabled',
      usage: {
        input_tokens: inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: inputTokens + outputTokens,
      },
      user: null,
      metadata: {},
    };
  },

  declaredToolNames: (body) => arrayAt(body, 'tools').map((tool) => stringAt(tool, 'name') ?? '(no name)'),

  replyProblems(body, previous, results) {
    const problems: string[] = [];
    const ids = openaiResponsesConformanceWire.callIds(previous);
    const input = arrayAt(body, 'input');
    const outputs = input.slice(-ids.length);
    const calls = input.slice(-2 * ids.length, -ids.length);

    if (
      listOf(fieldsOf(calls, 'call_id')) !== listOf(ids) ||
      calls.some((item) => stringAt(item, 'type') !== 'function_call')
    ) {
      problems.push(
        `the items before the outputs are not the re-sent function_call items ${listOf(ids)} (found call_ids ${listOf(fieldsOf(calls, 'call_id'))})`,
      );
    }
    calls.forEach((item, index) => {
      if (stringAt(item, 'name') !== previous.turn.calls[index]?.name)
        problems.push(`re-sent function_call ${index} has the wrong name`);
      if (!isJsonText(stringAt(item, 'arguments')))
        problems.push(`re-sent function_call ${index} has arguments that are not JSON`);
    });

    ids.forEach((id, index) => {
      const item = outputs[index];
      if (!isRecord(item) || item['type'] !== 'function_call_output') {
        problems.push(`input item ${index} of the results is not a function_call_output`);
        return;
      }
      if (item['call_id'] !== id)
        problems.push(`function_call_output ${index} answers ${String(item['call_id'])}, expected ${String(id)}`);
      if (!textHolds(item['output'], results[index]))
        problems.push(`function_call_output ${index} does not carry the result's text`);
    });
    return problems;
  },
};

let tools: JsonValue[] | undefined;

// Built once: a catalogue compiles its schemas, which is too slow to repeat for every generated response.
function echoedTools(): JsonValue[] {
  tools ??= createConformanceCatalogue().declarations.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false,
  }));
  return tools;
}

function seed(position: TurnPosition, what: string): string {
  return `openai-responses/${position.scenarioId}/${position.turnIndex}/${what}`;
}
