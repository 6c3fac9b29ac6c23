import { canonicalJson, type JsonValue } from '@toolcircuit/core';
import type { CassetteProtocol } from '../cassettes/cassette.js';
import { arrayAt, isRecord, recordAt, stringAt } from '../cassettes/json-access.js';

/**
 * A wire response made a refusal, in each provider's shape: Anthropic's `refusal` stop reason, OpenAI's
 * `refusal` field (Chat) or content part (Responses) with a normal finish, Gemini's safety block (a
 * `SAFETY` finish with no content: Gemini has no refusal of its own).
 */
export function refusalBody(protocol: CassetteProtocol, body: JsonValue): JsonValue {
  if (!isRecord(body)) return body;
  switch (protocol) {
    case 'anthropic-messages':
      return { ...body, stop_reason: 'refusal' };
    case 'openai-chat': {
      const [choice] = arrayAt(body, 'choices');
      const message = recordAt(choice, 'message') ?? {};
      const text = stringAt(message, 'content') ?? '';
      return { ...body, choices: [{ ...(choice as object), message: { ...message, content: null, refusal: text } }] };
    }
    case 'openai-responses': {
      const [item] = arrayAt(body, 'output');
      const text = stringAt(arrayAt(item, 'content')[0], 'text') ?? '';
      return { ...body, output: [{ ...(item as object), content: [{ type: 'refusal', refusal: text }] }] };
    }
    case 'gemini': {
      const [candidate] = arrayAt(body, 'candidates');
      const { content: _content, ...rest } = (candidate ?? {}) as Record<string, JsonValue>;
      return {
        ...body,
        candidates: [
          {
            ...rest,
            finishReason: 'SAFETY',
            safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }],
          },
        ],
      };
    }
  }
}

/** How a request must carry the run's answer format: in the structured mode, or as the answer tool. */
export interface FormatExpectation {
  readonly protocol: CassetteProtocol;
  readonly mode: 'native' | 'tool';
  readonly name: string;
  /** The request asks for the answer now (the corrective turn): no other tool call may be made. */
  readonly answerNow: boolean;
}

/** What is wrong with how one request asks for the answer (empty: nothing). */
export function formatProblems(body: JsonValue | undefined, expected: FormatExpectation): string[] {
  const problems: string[] = [];
  const { protocol, mode, name, answerNow } = expected;
  const declared = declaredNames(protocol, body);
  if (mode === 'tool') {
    if (!declared.includes(name))
      problems.push(`the answer tool "${name}" is not declared (tools: ${declared.join(', ')})`);
    if (nativeFormat(protocol, body) !== undefined) problems.push('the structured mode is set next to the answer tool');
    // Canonical: an SDK may write the same object's keys in another order.
    const choice = canonicalJson(toolChoiceOf(protocol, body) ?? null);
    const wanted = canonicalJson(answerToolChoice(protocol, name, answerNow));
    if (choice !== wanted) problems.push(`tool choice ${choice}, expected ${wanted}`);
    return problems;
  }
  if (declared.includes(name)) problems.push(`an answer tool "${name}" is declared in native mode`);
  const format = nativeFormat(protocol, body);
  if (format === undefined) problems.push('the request carries no structured format');
  else problems.push(...formatFieldProblems(protocol, format, name));
  if (answerNow) {
    const choice = canonicalJson(toolChoiceOf(protocol, body) ?? null);
    const none = canonicalJson(noToolChoice(protocol));
    if (choice !== none) problems.push(`the corrective request's tool choice is ${choice}, expected ${none}`);
  }
  return problems;
}

/** Every string in the request's last message (or input item, or content). */
export function lastMessageTexts(protocol: CassetteProtocol, body: JsonValue | undefined): string[] {
  const key = protocol === 'openai-responses' ? 'input' : protocol === 'gemini' ? 'contents' : 'messages';
  const strings: string[] = [];
  const visit = (value: JsonValue | undefined): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) for (const item of value) visit(item);
    else if (isRecord(value)) for (const item of Object.values(value)) visit(item);
  };
  visit(arrayAt(body, key).at(-1));
  return strings;
}

function declaredNames(protocol: CassetteProtocol, body: JsonValue | undefined): string[] {
  const tools = arrayAt(body, 'tools');
  switch (protocol) {
    case 'anthropic-messages':
    case 'openai-responses':
      return tools.map((tool) => stringAt(tool, 'name') ?? '');
    case 'openai-chat':
      return tools.map((tool) => stringAt(recordAt(tool, 'function'), 'name') ?? '');
    case 'gemini':
      return tools.flatMap((tool) => arrayAt(tool, 'functionDeclarations').map((item) => stringAt(item, 'name') ?? ''));
  }
}

function nativeFormat(protocol: CassetteProtocol, body: JsonValue | undefined): JsonValue | undefined {
  switch (protocol) {
    case 'anthropic-messages':
      return recordAt(recordAt(body, 'output_config'), 'format');
    case 'openai-chat':
      return recordAt(body, 'response_format');
    case 'openai-responses':
      return recordAt(recordAt(body, 'text'), 'format');
    case 'gemini': {
      const config = recordAt(body, 'generationConfig');
      return config?.['responseMimeType'] === undefined ? undefined : config;
    }
  }
}

function formatFieldProblems(protocol: CassetteProtocol, format: JsonValue, name: string): string[] {
  const problems: string[] = [];
  const schemaOf = (value: JsonValue | undefined): JsonValue | undefined => recordAt(value, 'schema');
  let schema: JsonValue | undefined;
  switch (protocol) {
    case 'anthropic-messages':
      if (stringAt(format, 'type') !== 'json_schema') problems.push('output_config.format.type is not json_schema');
      schema = schemaOf(format);
      break;
    case 'openai-chat': {
      const inner = recordAt(format, 'json_schema');
      if (stringAt(format, 'type') !== 'json_schema') problems.push('response_format.type is not json_schema');
      if (stringAt(inner, 'name') !== name) problems.push(`response_format.json_schema.name is not "${name}"`);
      if (inner?.['strict'] !== true) problems.push('response_format.json_schema.strict is not true');
      schema = schemaOf(inner);
      break;
    }
    case 'openai-responses':
      if (stringAt(format, 'type') !== 'json_schema') problems.push('text.format.type is not json_schema');
      if (stringAt(format, 'name') !== name) problems.push(`text.format.name is not "${name}"`);
      if (isRecord(format) && format['strict'] !== true) problems.push('text.format.strict is not true');
      schema = schemaOf(format);
      break;
    case 'gemini':
      if (stringAt(format, 'responseMimeType') !== 'application/json') problems.push('responseMimeType is not JSON');
      schema = recordAt(format, 'responseJsonSchema');
      break;
  }
  if (schema === undefined) problems.push('the format has no schema');
  else if (!arrayAt(schema, 'required').includes('numero')) problems.push("the format's schema is not the answer's");
  return problems;
}

function toolChoiceOf(protocol: CassetteProtocol, body: JsonValue | undefined): JsonValue | undefined {
  if (protocol === 'gemini') return recordAt(recordAt(body, 'toolConfig'), 'functionCallingConfig');
  return isRecord(body) ? body['tool_choice'] : undefined;
}

function noToolChoice(protocol: CassetteProtocol): JsonValue {
  switch (protocol) {
    case 'anthropic-messages':
      return { type: 'none' };
    case 'gemini':
      return { mode: 'NONE' };
    default:
      return 'none';
  }
}

function answerToolChoice(protocol: CassetteProtocol, name: string, answerNow: boolean): JsonValue {
  switch (protocol) {
    case 'anthropic-messages':
      return answerNow ? { type: 'tool', name } : { type: 'any' };
    case 'gemini':
      return answerNow ? { mode: 'ANY', allowedFunctionNames: [name] } : { mode: 'ANY' };
    case 'openai-chat':
      return answerNow ? { type: 'function', function: { name } } : 'required';
    case 'openai-responses':
      return answerNow ? { type: 'function', name } : 'required';
  }
}
