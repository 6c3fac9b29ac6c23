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
   * function calls (and on Responses the custom tool and built-in type calls the client runs: `custom_tool_call`,
   * `apply_patch_call`, a `shell_call` outside a hosted container, `local_shell_call`, `computer_call`), Gemini
   * `functionCall` parts that carry a name (Vertex partial-argument chunks do not).
   */
  readonly toolCalls: number;
  /**
   * Where the answer says its text came from, when it does: Anthropic text citations, OpenAI annotations,
   * Gemini grounding chunks, retrieved URLs and recitation citations. Absent when none.
   */
  readonly sources?: number;
  /**
   * Output of tools the provider ran itself: Anthropic server-tool blocks, Responses hosted items (web search,
   * file search, code interpreter, image generation, hosted MCP, tool search, calls answered in the response),
   * Gemini code execution parts. Absent when none.
   */
  readonly hostedItems?: number;
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
    ...(tally.sources > 0 ? { sources: tally.sources } : {}),
    ...(tally.hostedItems > 0 ? { hostedItems: tally.hostedItems } : {}),
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
  sources: number;
  hostedItems: number;
  stopReason: string | null;
  error?: string;
}

function emptyTally(): Tally {
  return { toolCalls: 0, sources: 0, hostedItems: 0, stopReason: null };
}

const TALLIES: Record<CassetteProtocol, (payloads: Payloads) => Tally> = {
  'anthropic-messages': tallyAnthropic,
  'openai-chat': tallyOpenAiChat,
  'openai-responses': tallyOpenAiResponses,
  gemini: tallyGemini,
};

/** The blocks of tools Anthropic runs itself. */
const ANTHROPIC_SERVER_BLOCK = /^(server_tool_use|mcp_tool_use|mcp_tool_result|container_upload|.*_tool_result)$/;

function tallyAnthropicBlock(tally: Tally, block: JsonValue | undefined): void {
  const type = stringAt(block, 'type') ?? '';
  if (type === 'tool_use') tally.toolCalls += 1;
  else if (ANTHROPIC_SERVER_BLOCK.test(type)) tally.hostedItems += 1;
  tally.sources += arrayAt(block, 'citations').length;
}

function tallyAnthropic({ streaming, items }: Payloads): Tally {
  const tally = emptyTally();
  for (const item of items) {
    const type = stringAt(item, 'type');
    if (type === 'error') tally.error = stringAt(recordAt(item, 'error'), 'type') ?? 'error';
    if (!streaming) {
      for (const block of arrayAt(item, 'content')) tallyAnthropicBlock(tally, block);
      tally.stopReason = stringAt(item, 'stop_reason') ?? null;
    } else if (type === 'content_block_start') {
      tallyAnthropicBlock(tally, recordAt(item, 'content_block'));
    } else if (type === 'content_block_delta') {
      if (stringAt(recordAt(item, 'delta'), 'type') === 'citations_delta') tally.sources += 1;
    } else if (type === 'message_delta') {
      tally.stopReason = stringAt(recordAt(item, 'delta'), 'stop_reason') ?? tally.stopReason;
    }
  }
  return tally;
}

function tallyOpenAiChat({ streaming, items }: Payloads): Tally {
  const tally = emptyTally();
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
        tally.sources += arrayAt(recordAt(choice, 'message'), 'annotations').length;
        continue;
      }
      tally.sources += arrayAt(recordAt(choice, 'delta'), 'annotations').length;
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

/** Responses items of calls the client answers, when nothing in the response answered them already. */
const RESPONSES_CLIENT_CALLS: ReadonlySet<string> = new Set([
  'function_call',
  'custom_tool_call',
  'apply_patch_call',
  'shell_call',
  'local_shell_call',
  'computer_call',
]);

const RESPONSES_HOSTED_ITEMS: ReadonlySet<string> = new Set([
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'image_generation_call',
  'mcp_list_tools',
  'mcp_call',
  'mcp_approval_request',
  'tool_search_call',
  'tool_search_output',
]);

/** Tallies a response's output items: client calls, hosted items, annotations on its text. */
function tallyResponsesOutput(tally: Tally, output: readonly JsonValue[]): void {
  const answered = new Set(
    output.filter((item) => (stringAt(item, 'type') ?? '').endsWith('_output')).map((item) => stringAt(item, 'call_id')),
  );
  for (const item of output) {
    const type = stringAt(item, 'type') ?? '';
    const inContainer = stringAt(recordAt(item, 'environment'), 'type');
    const answeredHere = answered.has(stringAt(item, 'call_id')) || (inContainer !== undefined && inContainer !== 'local');
    if (RESPONSES_CLIENT_CALLS.has(type) && !(type !== 'function_call' && answeredHere)) tally.toolCalls += 1;
    else if (RESPONSES_HOSTED_ITEMS.has(type) || type.endsWith('_output') || RESPONSES_CLIENT_CALLS.has(type)) {
      tally.hostedItems += 1;
    }
    for (const part of arrayAt(item, 'content')) tally.sources += arrayAt(part, 'annotations').length;
  }
}

function tallyOpenAiResponses({ streaming, items }: Payloads): Tally {
  const tally = emptyTally();
  const readResponse = (response: JsonValue | undefined) => {
    const status = stringAt(response, 'status');
    const incomplete = stringAt(recordAt(response, 'incomplete_details'), 'reason');
    if (status !== undefined) tally.stopReason = incomplete === undefined ? status : `${status}:${incomplete}`;
    const error = recordAt(response, 'error');
    if (error !== undefined) tally.error = stringAt(error, 'code') ?? stringAt(error, 'type') ?? 'error';
  };
  // A stream is tallied from the items it finished (`output_item.done`), as its final response lists them.
  const done: JsonValue[] = [];
  for (const item of items) {
    if (!streaming) {
      tallyResponsesOutput(tally, arrayAt(item, 'output'));
      readResponse(item);
      continue;
    }
    const type = stringAt(item, 'type');
    if (type === 'response.output_item.added' && stringAt(recordAt(item, 'item'), 'type') === 'function_call') {
      // A call announced but never finished (a cut stream) still counts: the model asked for it.
      if (!items.some((other) => isSameItemDone(other, item))) tally.toolCalls += 1;
    } else if (type === 'response.output_item.done') {
      const finished = recordAt(item, 'item');
      if (finished !== undefined) done.push(finished);
    } else if (type === 'response.completed' || type === 'response.failed' || type === 'response.incomplete') {
      readResponse(recordAt(item, 'response'));
    } else if (type === 'error') {
      const error = recordAt(item, 'error') ?? item;
      tally.error = stringAt(error, 'code') ?? stringAt(error, 'type') ?? 'error';
    }
  }
  if (streaming) tallyResponsesOutput(tally, done);
  return tally;
}

function isSameItemDone(other: JsonValue, added: JsonValue): boolean {
  return (
    stringAt(other, 'type') === 'response.output_item.done' &&
    isRecord(other) &&
    isRecord(added) &&
    other['output_index'] === added['output_index']
  );
}

function tallyGemini({ items }: Payloads): Tally {
  const tally = emptyTally();
  // Grounding metadata may be repeated across a stream's chunks: the last one of each kind counts.
  let grounding = 0;
  let urls = 0;
  let citations = 0;
  for (const item of items) {
    const error = recordAt(item, 'error');
    if (error !== undefined) tally.error = stringAt(error, 'status') ?? 'error';
    for (const candidate of arrayAt(item, 'candidates')) {
      for (const part of arrayAt(recordAt(candidate, 'content'), 'parts')) {
        if (stringAt(recordAt(part, 'functionCall'), 'name') !== undefined) tally.toolCalls += 1;
        if (recordAt(part, 'executableCode') !== undefined || recordAt(part, 'codeExecutionResult') !== undefined) {
          tally.hostedItems += 1;
        }
      }
      tally.stopReason = stringAt(candidate, 'finishReason') ?? tally.stopReason;
      const chunks = recordAt(candidate, 'groundingMetadata');
      if (chunks !== undefined) grounding = arrayAt(chunks, 'groundingChunks').length;
      const retrieved = recordAt(candidate, 'urlContextMetadata');
      if (retrieved !== undefined) urls = arrayAt(retrieved, 'urlMetadata').length;
      const recited = recordAt(candidate, 'citationMetadata');
      if (recited !== undefined) citations = arrayAt(recited, 'citationSources').length;
    }
  }
  tally.sources = grounding + urls + citations;
  return tally;
}
