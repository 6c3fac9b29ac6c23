import { GEMINI_FOREIGN_CALL_SIGNATURE, type JsonValue } from '@toolcircuit/core';
import type { CassetteProtocol } from '../cassettes/cassette.js';
import { arrayAt, isRecord, recordAt, stringAt } from '../cassettes/json-access.js';
import { isJsonText, listOf, turnAndReply } from '../conformance/reply-problems.js';

/** A call of the turn another provider made, as the run holds it, and the text of its result. */
export interface ExpectedCall {
  readonly id: string;
  readonly name: string;
  readonly result: string;
}

/**
 * What is wrong with a request sent to `protocol` when the last turn was made by `from` (another backend):
 * the calls must be re-sent in the receiving API's own shape, with their ids (names on Gemini), and the
 * results right after them, paired, in call order; and nothing only another provider can read may be in it
 * (thinking signatures, encrypted reasoning, thought signatures other than Gemini's documented placeholder).
 * Empty: nothing is wrong.
 */
export function foreignHistoryProblems(
  protocol: CassetteProtocol,
  from: CassetteProtocol,
  body: JsonValue,
  calls: readonly ExpectedCall[],
): string[] {
  const problems = [...foreignFields(protocol, body)];
  switch (protocol) {
    case 'anthropic-messages':
      problems.push(...anthropicProblems(body, calls));
      break;
    case 'openai-chat':
      problems.push(...chatProblems(body, calls));
      break;
    case 'openai-responses':
      problems.push(...responsesProblems(body, calls));
      break;
    case 'gemini':
      problems.push(...geminiProblems(body, calls, from === 'gemini'));
      break;
  }
  return problems;
}

/** Keys (and block types) only one API reads back, found in a request to another. */
function foreignFields(protocol: CassetteProtocol, body: JsonValue): string[] {
  const found = new Set<string>();
  walk(body, (key, value) => {
    if (protocol !== 'anthropic-messages' && (key === 'signature' || (key === 'type' && value === 'thinking'))) {
      found.add(`Anthropic ${key === 'type' ? 'thinking block' : 'signature'}`);
    }
    if (
      protocol === 'anthropic-messages' &&
      key === 'type' &&
      (value === 'thinking' || value === 'redacted_thinking')
    ) {
      found.add('a thinking block Anthropic did not sign');
    }
    if (protocol !== 'openai-responses' && key === 'encrypted_content') found.add('OpenAI encrypted reasoning');
    if (protocol !== 'openai-responses' && key === 'type' && value === 'reasoning')
      found.add('an OpenAI reasoning item');
    if (protocol !== 'gemini' && key === 'thoughtSignature') found.add('a Gemini thought signature');
  });
  return [...found].map((what) => `the request holds ${what}`);
}

function walk(value: JsonValue | undefined, visit: (key: string, value: JsonValue) => void): void {
  if (Array.isArray(value)) for (const item of value) walk(item, visit);
  else if (isRecord(value)) {
    for (const [key, inner] of Object.entries(value)) {
      visit(key, inner as JsonValue);
      walk(inner as JsonValue, visit);
    }
  }
}

function holds(content: JsonValue | undefined, text: string): boolean {
  if (typeof content === 'string') return content.includes(text);
  return JSON.stringify(content ?? null).includes(text);
}

function anthropicProblems(body: JsonValue, calls: readonly ExpectedCall[]): string[] {
  const problems: string[] = [];
  const { turn: assistant, reply } = turnAndReply(body, 'messages', 'assistant', problems);
  const uses = arrayAt(assistant, 'content').filter((block) => stringAt(block, 'type') === 'tool_use');
  const sent = uses.map((block) => `${stringAt(block, 'id')}/${stringAt(block, 'name')}`);
  const expected = calls.map((call) => `${call.id}/${call.name}`);
  if (listOf(sent) !== listOf(expected)) problems.push(`tool_use blocks ${listOf(sent)}, expected ${listOf(expected)}`);
  if (stringAt(reply, 'role') !== 'user') problems.push('the results are not in a user message');
  calls.forEach((call, index) => {
    const block = arrayAt(reply, 'content')[index];
    if (stringAt(block, 'type') !== 'tool_result' || stringAt(block, 'tool_use_id') !== call.id) {
      problems.push(`block ${index} of the reply is not the tool_result of ${call.id}`);
    } else if (!holds(isRecord(block) ? (block['content'] as JsonValue) : null, call.result)) {
      problems.push(`tool_result ${index} does not carry the result`);
    }
  });
  return problems;
}

function chatProblems(body: JsonValue, calls: readonly ExpectedCall[]): string[] {
  const problems: string[] = [];
  const messages = arrayAt(body, 'messages');
  const assistant = messages.at(-calls.length - 1);
  if (stringAt(assistant, 'role') !== 'assistant')
    problems.push('the message before the results is not the assistant turn');
  const sent = arrayAt(assistant, 'tool_calls').map((call) => {
    const fn = recordAt(call, 'function');
    if (!isJsonText(stringAt(fn, 'arguments')))
      problems.push(`tool_call ${stringAt(call, 'id')} arguments are not JSON`);
    return `${stringAt(call, 'id')}/${stringAt(fn, 'name')}`;
  });
  const expected = calls.map((call) => `${call.id}/${call.name}`);
  if (listOf(sent) !== listOf(expected)) problems.push(`tool_calls ${listOf(sent)}, expected ${listOf(expected)}`);
  calls.forEach((call, index) => {
    const message = messages.at(-calls.length + index);
    if (stringAt(message, 'role') !== 'tool' || stringAt(message, 'tool_call_id') !== call.id) {
      problems.push(`message ${index} after the assistant turn is not the tool message of ${call.id}`);
    } else if (!holds(isRecord(message) ? (message['content'] as JsonValue) : null, call.result)) {
      problems.push(`tool message ${index} does not carry the result`);
    }
  });
  return problems;
}

function responsesProblems(body: JsonValue, calls: readonly ExpectedCall[]): string[] {
  const problems: string[] = [];
  const input = arrayAt(body, 'input');
  const tail = input.slice(-2 * calls.length);
  const sent = tail.slice(0, calls.length).map((item) => {
    if (!isJsonText(stringAt(item, 'arguments')))
      problems.push(`function_call ${stringAt(item, 'call_id')} arguments are not JSON`);
    return `${stringAt(item, 'type')}:${stringAt(item, 'call_id')}/${stringAt(item, 'name')}`;
  });
  const expected = calls.map((call) => `function_call:${call.id}/${call.name}`);
  if (listOf(sent) !== listOf(expected)) problems.push(`items ${listOf(sent)}, expected ${listOf(expected)}`);
  calls.forEach((call, index) => {
    const item = tail[calls.length + index];
    if (stringAt(item, 'type') !== 'function_call_output' || stringAt(item, 'call_id') !== call.id) {
      problems.push(`item ${index} after the calls is not the function_call_output of ${call.id}`);
    } else if (!holds(isRecord(item) ? (item['output'] as JsonValue) : null, call.result)) {
      problems.push(`function_call_output ${index} does not carry the result`);
    }
  });
  return problems;
}

function geminiProblems(body: JsonValue, calls: readonly ExpectedCall[], ownTurn: boolean): string[] {
  const problems: string[] = [];
  const { turn: model, reply } = turnAndReply(body, 'contents', 'model', problems);
  const parts = arrayAt(model, 'parts').filter((part) => recordAt(part, 'functionCall') !== undefined);
  const names = parts.map((part) => stringAt(recordAt(part, 'functionCall'), 'name'));
  if (listOf(names) !== listOf(calls.map((call) => call.name))) problems.push(`functionCalls ${listOf(names)}`);
  const signature = stringAt(parts[0], 'thoughtSignature');
  if (
    ownTurn
      ? signature === undefined || signature === GEMINI_FOREIGN_CALL_SIGNATURE
      : signature !== GEMINI_FOREIGN_CALL_SIGNATURE
  ) {
    problems.push(`the first functionCall carries thoughtSignature ${String(signature)}`);
  }
  for (const part of parts.slice(1)) {
    if (!ownTurn && stringAt(part, 'thoughtSignature') !== undefined)
      problems.push('a later functionCall carries a signature');
  }
  const role = stringAt(reply, 'role');
  if (role !== 'user' && role !== 'function') problems.push(`the results content has role ${String(role)}`);
  calls.forEach((call, index) => {
    const response = recordAt(arrayAt(reply, 'parts')[index], 'functionResponse');
    if (response === undefined || response['name'] !== call.name) {
      problems.push(`part ${index} of the results is not the functionResponse of ${call.name}`);
    } else if (!holds(response['response'] as JsonValue, call.result)) {
      problems.push(`functionResponse ${index} does not carry the result`);
    }
  });
  return problems;
}
