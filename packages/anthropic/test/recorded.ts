// Test-side reading of recorded Anthropic traffic: the recorded request body back to a neutral request
// (so the adapter can be asked to produce it again), a normal form to compare request bodies, and the
// expected neutral outcome of a recorded response, computed independently of the adapter.
import type {
  AssistantContentPart,
  JsonObject,
  JsonValue,
  Message,
  ModelRequest,
  ModelTurn,
  ToolChoice,
  ToolDeclaration,
  ToolResultPart,
  UserMessage,
} from '@toolcircuit/core';
import { translateSchema } from '@toolcircuit/schema';
import { parseSse, type RecordedResponse } from '@toolcircuit/testing';

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function blocksOf(content: JsonValue | undefined): JsonObject[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

function text(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : '';
}

// Keys the adapter derives from neutral fields; everything else in a recorded body goes in the options bag.
const DERIVED = new Set(['model', 'max_tokens', 'messages', 'system', 'tools', 'tool_choice', 'temperature', 'stream']);

/**
 * A neutral request that should make the adapter send `body` again. When `previous` (the adapter's own turn
 * for the previous response) has the same tool_use ids as the recorded history's last assistant message,
 * that message is replaced by the adapter's turn: the comparison then proves the round trip.
 */
export function neutralRequestOf(
  body: JsonObject,
  previous: ModelTurn | undefined,
): { request: ModelRequest; replaced: boolean } {
  const toolNames = new Map<string, string>();
  const messages: Message[] = [];
  const recorded = Array.isArray(body['messages']) ? body['messages'].filter(isObject) : [];
  const lastAssistant = recorded.map((m) => m['role']).lastIndexOf('assistant');
  let replaced = false;
  recorded.forEach((message, position) => {
    const blocks = blocksOf(message['content']);
    if (message['role'] === 'assistant') {
      for (const block of blocks)
        if (block['type'] === 'tool_use') toolNames.set(text(block['id']), text(block['name']));
      if (position === lastAssistant && previous !== undefined && sameCalls(blocks, previous)) {
        replaced = true;
        messages.push({
          role: 'assistant',
          content: previous.content,
          ...(previous.providerMetadata === undefined ? {} : { providerMetadata: previous.providerMetadata }),
        });
        return;
      }
      messages.push({ role: 'assistant', content: blocks.flatMap(assistantPart) });
      return;
    }
    const results: ToolResultPart[] = blocks
      .filter((block) => block['type'] === 'tool_result')
      .map((block) => ({
        type: 'tool_result',
        callId: text(block['tool_use_id']),
        name: toolNames.get(text(block['tool_use_id'])) ?? 'unknown',
        content: resultContent(block['content']),
        isError: block['is_error'] === true,
      }));
    if (results.length > 0) messages.push({ role: 'tool', content: results });
    const texts = blocks
      .filter((block) => block['type'] === 'text')
      .map((block) => ({ type: 'text' as const, text: text(block['text']) }));
    if (texts.length > 0) messages.push({ role: 'user', content: texts } satisfies UserMessage);
  });

  const bag: JsonObject = {};
  for (const [key, value] of Object.entries(body)) if (!DERIVED.has(key)) bag[key] = value;
  // The adapter sends the container id itself when it comes from its own previous turn.
  if (replaced && previous?.providerMetadata?.['anthropic']?.['container'] !== undefined) delete bag['container'];

  const system = systemOf(body['system']);
  const toolChoice = toolChoiceOf(body['tool_choice']);
  const request: ModelRequest = {
    messages,
    tools: toolsOf(body['tools']),
    ...(system === undefined ? {} : { system }),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(isObject(body['tool_choice']) && body['tool_choice']['disable_parallel_tool_use'] === true
      ? { parallelToolCalls: false }
      : {}),
    ...(typeof body['max_tokens'] === 'number' ? { maxOutputTokens: body['max_tokens'] } : {}),
    ...(typeof body['temperature'] === 'number' ? { temperature: body['temperature'] } : {}),
    ...(Object.keys(bag).length === 0 ? {} : { providerOptions: { anthropic: bag } }),
  };
  return { request, replaced };
}

function sameCalls(blocks: readonly JsonObject[], turn: ModelTurn): boolean {
  const recorded = blocks.filter((b) => b['type'] === 'tool_use').map((b) => text(b['id']));
  const ours = turn.content.filter((p) => p.type === 'tool_call').map((p) => (p.type === 'tool_call' ? p.id : ''));
  return recorded.length > 0 && JSON.stringify(recorded) === JSON.stringify(ours);
}

function assistantPart(block: JsonObject): AssistantContentPart[] {
  switch (block['type']) {
    case 'text':
      return [{ type: 'text', text: text(block['text']) }];
    case 'thinking':
      return [
        {
          type: 'reasoning',
          text: text(block['thinking']),
          providerMetadata: { anthropic: { signature: text(block['signature']) } },
        },
      ];
    case 'redacted_thinking':
      return [{ type: 'reasoning', text: '', providerMetadata: { anthropic: { data: text(block['data']) } } }];
    case 'tool_use':
      return [{ type: 'tool_call', id: text(block['id']), name: text(block['name']), input: block['input'] }];
    default:
      return [];
  }
}

function resultContent(content: JsonValue | undefined): ToolResultPart['content'] {
  if (typeof content === 'string') return content;
  return blocksOf(content).map((block) => ({ type: 'text', text: text(block['text']) }));
}

function systemOf(system: JsonValue | undefined): string | undefined {
  if (typeof system === 'string') return system;
  if (Array.isArray(system))
    return blocksOf(system)
      .map((block) => text(block['text']))
      .join('\n\n');
  return undefined;
}

function toolsOf(tools: JsonValue | undefined): ToolDeclaration[] {
  if (!Array.isArray(tools)) return [];
  return tools
    .filter(isObject)
    .flatMap((tool) =>
      isObject(tool['input_schema'])
        ? [{ name: text(tool['name']), description: text(tool['description']), inputSchema: tool['input_schema'] }]
        : [],
    );
}

function toolChoiceOf(choice: JsonValue | undefined): ToolChoice | undefined {
  if (!isObject(choice)) return undefined;
  if (choice['type'] === 'any') return 'required';
  if (choice['type'] === 'tool') return { type: 'tool', name: text(choice['name']) };
  return choice['type'] === 'none' ? 'none' : 'auto';
}

/**
 * A request body in a comparable form. Differences that carry no meaning are removed: a string content is
 * its text block, an absent `is_error` is false, a `direct` caller is the default, consecutive messages of
 * one role are one turn (the API merges them; the adapter sends them merged), and only custom tools' names
 * and schemas are compared (strict flags, allowed_callers and server tools have no neutral equivalent);
 * with `translateSchemas`, a schema is replaced by its `@toolcircuit/schema` translation.
 */
export function normalBody(body: JsonValue | undefined, options: { translateSchemas?: boolean } = {}): JsonObject {
  if (!isObject(body)) return {};
  const turns: { role: string; content: JsonObject[] }[] = [];
  for (const message of Array.isArray(body['messages']) ? body['messages'].filter(isObject) : []) {
    const role = text(message['role']);
    const content = blocksOf(message['content']).map(normalBlock);
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...content);
    else turns.push({ role, content });
  }
  const out: JsonObject = { messages: turns.map((t) => ({ role: t.role, content: t.content })) };
  const system = systemOf(body['system']);
  if (system !== undefined && system !== '') out['system'] = system;
  // A recorded client's schema is compared with what the adapter must send for it: its translation.
  out['tools'] = toolsOf(body['tools']).map((tool) => ({
    name: tool.name,
    input_schema:
      options.translateSchemas === true ? translateSchema(tool.inputSchema, 'anthropic').schema : tool.inputSchema,
  }));
  for (const key of ['model', 'max_tokens', 'tool_choice', 'thinking', 'container', 'output_config', 'temperature']) {
    const value = body[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function normalBlock(block: JsonObject): JsonObject {
  const { caller, cache_control: _cacheControl, ...rest } = block;
  const out: JsonObject = { ...rest };
  if (isObject(caller) && caller['type'] !== 'direct') out['caller'] = caller;
  if (block['type'] === 'tool_result') {
    out['is_error'] = block['is_error'] === true;
    if (Array.isArray(block['content'])) out['content'] = blocksOf(block['content']).map(normalBlock);
  }
  if (block['type'] === 'text' && block['citations'] === null) delete out['citations'];
  return out;
}

export interface ExpectedCall {
  readonly id: string;
  readonly name: string;
  /** `undefined` for a call the recording cut off. */
  readonly input: unknown;
}

export type ExpectedOutcome =
  | {
      readonly kind: 'turn';
      readonly calls: readonly ExpectedCall[];
      readonly incomplete: readonly string[];
      readonly stopReason: string | null;
      /** Citations on the answer's text (each a source). */
      readonly sources: number;
      /** Blocks of server tools (web search, fetch, code execution…), kept as server blocks. */
      readonly serverBlocks: number;
    }
  | {
      readonly kind: 'error';
      readonly status: number;
      readonly type: string;
      readonly requestId: string | undefined;
      readonly shouldRetry: string | undefined;
    };

/** The blocks the adapter gives a neutral part; the others in these recordings are server tools'. */
const NEUTRAL_BLOCKS = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use']);
const CITATIONS = new Set([
  'web_search_result_location',
  'search_result_location',
  'char_location',
  'page_location',
  'content_block_location',
]);

function citationCount(citations: JsonValue | undefined): number {
  return blocksOf(Array.isArray(citations) ? citations : []).filter((c) => CITATIONS.has(text(c['type']))).length;
}

export function isStreamed(response: RecordedResponse): boolean {
  return (
    response.body.kind === 'sse' ||
    (response.body.kind === 'text' && /event-stream/.test(response.headers['content-type'] ?? ''))
  );
}

/** What the recorded response says, read directly from its JSON or SSE events. */
export function expectedOutcome(response: RecordedResponse): ExpectedOutcome {
  if (response.status >= 400) {
    const body = response.body.kind === 'json' && isObject(response.body.json) ? response.body.json : {};
    const error = isObject(body['error']) ? body['error'] : {};
    return {
      kind: 'error',
      status: response.status,
      type: text(error['type']),
      requestId:
        response.headers['request-id'] ?? (typeof body['request_id'] === 'string' ? body['request_id'] : undefined),
      shouldRetry: response.headers['x-should-retry'],
    };
  }
  if (response.body.kind === 'json') {
    const json = isObject(response.body.json) ? response.body.json : {};
    const calls = blocksOf(json['content'])
      .filter((block) => block['type'] === 'tool_use')
      .map((block) => ({ id: text(block['id']), name: text(block['name']), input: block['input'] }));
    const blocks = blocksOf(json['content']);
    return {
      kind: 'turn',
      calls,
      incomplete: [],
      stopReason: typeof json['stop_reason'] === 'string' ? json['stop_reason'] : null,
      sources: blocks.reduce((sum, block) => sum + citationCount(block['citations']), 0),
      serverBlocks: blocks.filter((block) => !NEUTRAL_BLOCKS.has(text(block['type']))).length,
    };
  }
  const events =
    response.body.kind === 'sse'
      ? response.body.events.map((event) => event.data)
      : parseSse(response.body.text).map((event) => event.data);
  const tools = new Map<number, { id: string; name: string; json: string; stopped: boolean }>();
  let stopReason: string | null = null;
  let sources = 0;
  let serverBlocks = 0;
  for (const data of events) {
    let event: JsonValue;
    try {
      event = JSON.parse(data) as JsonValue;
    } catch {
      continue;
    }
    if (!isObject(event)) continue;
    const index = typeof event['index'] === 'number' ? event['index'] : -1;
    const block = event['content_block'];
    if (event['type'] === 'content_block_start' && isObject(block) && block['type'] === 'tool_use') {
      tools.set(index, { id: text(block['id']), name: text(block['name']), json: '', stopped: false });
    }
    if (event['type'] === 'content_block_start' && isObject(block)) {
      sources += citationCount(block['citations']);
      if (!NEUTRAL_BLOCKS.has(text(block['type']))) serverBlocks += 1;
    }
    const delta = event['delta'];
    if (isObject(delta) && delta['type'] === 'citations_delta') sources += citationCount([delta['citation'] ?? null]);
    const tool = tools.get(index);
    if (event['type'] === 'content_block_delta' && isObject(delta) && tool !== undefined)
      tool.json += text(delta['partial_json']);
    if (event['type'] === 'content_block_stop' && tool !== undefined) tool.stopped = true;
    if (event['type'] === 'message_delta' && isObject(delta) && typeof delta['stop_reason'] === 'string')
      stopReason = delta['stop_reason'];
  }
  const ordered = [...tools.entries()].sort(([a], [b]) => a - b).map(([, tool]) => tool);
  return {
    kind: 'turn',
    calls: ordered.map((tool) => ({
      id: tool.id,
      name: tool.name,
      input: tool.stopped ? (JSON.parse(tool.json === '' ? '{}' : tool.json) as unknown) : undefined,
    })),
    incomplete: ordered.filter((tool) => !tool.stopped).map((tool) => tool.id),
    stopReason,
    sources,
    serverBlocks,
  };
}
