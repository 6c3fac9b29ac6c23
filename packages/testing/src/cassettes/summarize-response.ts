import type { JsonValue } from '@toolcircuit/core';
import type { CassetteProtocol, RecordedBody, RecordedResponse } from './cassette.js';
import { arrayAt, isRecord, recordAt, stringAt, tryParseJson } from './json-access.js';
import { parseSse } from '../http/parse-sse.js';

/** What one recorded response holds, for choosing cassettes: counted from the body, never guessed. */
export interface ResponseSummary {
  readonly status: number;
  /** SSE, or Gemini's JSON-array stream (streamGenerateContent without `alt=sse`). */
  readonly streaming: boolean;
  /**
   * Client tool calls the model asks for: Anthropic `tool_use` blocks (not `server_tool_use`), OpenAI
   * function calls, Gemini `functionCall` parts that carry a name (Vertex partial-argument chunks do not).
   */
  readonly toolCalls: number;
  /** The provider's own stop signal: stop_reason, finish_reason, Responses status, Gemini finishReason. */
  readonly stopReason: string | null;
  /** The provider's error type or code, when the response is an error or the stream carries one. */
  readonly error?: string;
}

interface Payloads {
  readonly streaming: boolean;
  readonly items: readonly JsonValue[];
}

export function summarizeResponse(protocol: CassetteProtocol, response: RecordedResponse): ResponseSummary {
  const payloads = payloadsOf(response.body, contentTypeOf(response.headers));
  const tally = TALLIES[protocol](payloads);
  return {
    status: response.status,
    streaming: payloads.streaming,
    toolCalls: tally.toolCalls,
    stopReason: tally.stopReason,
    ...(tally.error === undefined ? {} : { error: tally.error }),
  };
}

function contentTypeOf(headers: Readonly<Record<string, string>>): string {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === 'content-type') return value;
  return '';
}

function payloadsOf(body: RecordedBody, contentType: string): Payloads {
  if (body.kind === 'json') return { streaming: false, items: [body.json] };
  if (body.kind === 'sse') return { streaming: true, items: jsonOf(body.events.map((event) => event.data)) };
  if (contentType.includes('event-stream') || /^(data|event):/.test(body.text)) {
    return { streaming: true, items: jsonOf(parseSse(body.text).map((event) => event.data)) };
  }
  const parsed = tryParseJson(body.text);
  // A JSON array body is Gemini's non-SSE stream: one GenerateContentResponse per element.
  if (Array.isArray(parsed)) return { streaming: true, items: parsed };
  return { streaming: false, items: parsed === undefined ? [] : [parsed] };
}

function jsonOf(datas: readonly string[]): JsonValue[] {
  const items: JsonValue[] = [];
  for (const data of datas) {
    const parsed = tryParseJson(data);
    if (parsed !== undefined) items.push(parsed);
  }
  return items;
}

interface Tally {
  toolCalls: number;
  stopReason: string | null;
  error?: string;
}

const TALLIES: Record<CassetteProtocol, (payloads: Payloads) => Tally> = {
  'anthropic-messages': tallyAnthropic,
  'openai-chat': tallyOpenAiChat,
  'openai-responses': tallyOpenAiResponses,
  gemini: tallyGemini,
};

function tallyAnthropic({ streaming, items }: Payloads): Tally {
  const tally: Tally = { toolCalls: 0, stopReason: null };
  for (const item of items) {
    const type = stringAt(item, 'type');
    if (type === 'error') tally.error = stringAt(recordAt(item, 'error'), 'type') ?? 'error';
    if (!streaming) {
      tally.toolCalls += arrayAt(item, 'content').filter((block) => stringAt(block, 'type') === 'tool_use').length;
      tally.stopReason = stringAt(item, 'stop_reason') ?? null;
    } else if (type === 'content_block_start') {
      if (stringAt(recordAt(item, 'content_block'), 'type') === 'tool_use') tally.toolCalls += 1;
    } else if (type === 'message_delta') {
      tally.stopReason = stringAt(recordAt(item, 'delta'), 'stop_reason') ?? tally.stopReason;
    }
  }
  return tally;
}

function tallyOpenAiChat({ streaming, items }: Payloads): Tally {
  const tally: Tally = { toolCalls: 0, stopReason: null };
  // Streamed calls arrive as fragments; a call is one (choice index, tool_call index) pair.
  const streamedCalls = new Set<string>();
  for (const item of items) {
    const error = recordAt(item, 'error');
    if (error !== undefined) tally.error = stringAt(error, 'code') ?? stringAt(error, 'type') ?? 'error';
    for (const choice of arrayAt(item, 'choices')) {
      const finish = stringAt(choice, 'finish_reason');
      if (finish !== undefined) tally.stopReason = finish;
      if (!streaming) {
        tally.toolCalls += arrayAt(recordAt(choice, 'message'), 'tool_calls').length;
        continue;
      }
      const choiceIndex = isRecord(choice) ? String(choice['index'] ?? 0) : '0';
      for (const call of arrayAt(recordAt(choice, 'delta'), 'tool_calls')) {
        const callIndex = isRecord(call) ? String(call['index'] ?? 0) : '0';
        streamedCalls.add(`${choiceIndex}:${callIndex}`);
      }
    }
  }
  if (streaming) tally.toolCalls = streamedCalls.size;
  return tally;
}

function tallyOpenAiResponses({ streaming, items }: Payloads): Tally {
  const tally: Tally = { toolCalls: 0, stopReason: null };
  const readResponse = (response: JsonValue | undefined) => {
    const status = stringAt(response, 'status');
    const incomplete = stringAt(recordAt(response, 'incomplete_details'), 'reason');
    if (status !== undefined) tally.stopReason = incomplete === undefined ? status : `${status}:${incomplete}`;
    const error = recordAt(response, 'error');
    if (error !== undefined) tally.error = stringAt(error, 'code') ?? stringAt(error, 'type') ?? 'error';
  };
  for (const item of items) {
    if (!streaming) {
      tally.toolCalls += arrayAt(item, 'output').filter((out) => stringAt(out, 'type') === 'function_call').length;
      readResponse(item);
      continue;
    }
    const type = stringAt(item, 'type');
    if (type === 'response.output_item.added' && stringAt(recordAt(item, 'item'), 'type') === 'function_call') {
      tally.toolCalls += 1;
    } else if (type === 'response.completed' || type === 'response.failed' || type === 'response.incomplete') {
      readResponse(recordAt(item, 'response'));
    } else if (type === 'error') {
      const error = recordAt(item, 'error') ?? item;
      tally.error = stringAt(error, 'code') ?? stringAt(error, 'type') ?? 'error';
    }
  }
  return tally;
}

function tallyGemini({ items }: Payloads): Tally {
  const tally: Tally = { toolCalls: 0, stopReason: null };
  for (const item of items) {
    const error = recordAt(item, 'error');
    if (error !== undefined) tally.error = stringAt(error, 'status') ?? 'error';
    for (const candidate of arrayAt(item, 'candidates')) {
      for (const part of arrayAt(recordAt(candidate, 'content'), 'parts')) {
        if (stringAt(recordAt(part, 'functionCall'), 'name') !== undefined) tally.toolCalls += 1;
      }
      tally.stopReason = stringAt(candidate, 'finishReason') ?? tally.stopReason;
    }
  }
  return tally;
}
