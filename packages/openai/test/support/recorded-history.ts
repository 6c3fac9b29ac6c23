import type {
  BuiltinToolKind,
  HostedTool,
  JsonObject,
  JsonValue,
  Message,
  ModelRequest,
  ModelTurn,
  ToolCallPart,
  ToolChoice,
  ToolDeclaration,
  ToolResultPart,
} from '@toolcircuit/core';
import { providerTool, toolCallsOf } from '@toolcircuit/core';
import { isObject } from './recorded-oracle.js';

/**
 * Rebuilds the neutral request behind a recorded request body. The k-th assistant turn in the recorded
 * history is the k-th turn the adapter itself parsed earlier in the cassette (so provider data such as
 * reasoning items flows through the adapter, not from the recording); tool results are paired with the
 * adapter's call ids by position, because some recorders sent another id than the one the API returned.
 */
export interface RecordedRequestShape {
  readonly request: ModelRequest;
  readonly systemRole: 'system' | 'developer';
  readonly strict: boolean;
}

const objects = (value: JsonValue | undefined): JsonObject[] => (Array.isArray(value) ? value.filter(isObject) : []);
const text = (value: JsonValue | undefined): string =>
  typeof value === 'string'
    ? value
    : objects(value)
        .map((part) => (typeof part['text'] === 'string' ? part['text'] : ''))
        .join('');

function toolChoiceOf(value: JsonValue | undefined): ToolChoice | undefined {
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (!isObject(value)) return undefined;
  const fn = isObject(value['function']) ? value['function'] : value;
  return typeof fn['name'] === 'string' ? { type: 'tool', name: fn['name'] } : undefined;
}

const BUILTIN_TOOL_TYPES: ReadonlySet<string> = new Set(['apply_patch', 'shell', 'local_shell']);

/**
 * The recorded `tools` as the catalogue would declare them: functions, custom tools as text tools (with their
 * grammar), the built-in types the client runs as tools of that kind, and any other type (web search, hosted
 * MCP, a compatible server's own tool) as a provider tool given raw.
 */
function declarationsOf(tools: JsonValue | undefined): {
  tools: ToolDeclaration[];
  hostedTools: HostedTool[];
  strict: boolean;
} {
  const declarations: ToolDeclaration[] = [];
  const hostedTools: HostedTool[] = [];
  const functions: JsonObject[] = [];
  for (const tool of objects(tools)) {
    const type = tool['type'];
    const fn = isObject(tool['function'])
      ? tool['function']
      : type === 'function' || type === undefined
        ? tool
        : undefined;
    if (fn !== undefined) {
      functions.push(fn);
      declarations.push({
        name: String(fn['name']),
        description: typeof fn['description'] === 'string' ? fn['description'] : '',
        inputSchema: isObject(fn['parameters']) ? fn['parameters'] : { type: 'object', properties: {} },
      });
    } else if (type === 'custom') {
      const custom = isObject(tool['custom']) ? tool['custom'] : tool;
      const format = isObject(custom['format']) ? custom['format'] : {};
      const grammar = isObject(format['grammar']) ? format['grammar'] : format;
      declarations.push({
        name: String(custom['name']),
        description: typeof custom['description'] === 'string' ? custom['description'] : '',
        inputSchema: { type: 'string' },
        textInput:
          format['type'] === 'grammar'
            ? { grammar: { syntax: grammar['syntax'] as 'lark' | 'regex', definition: String(grammar['definition']) } }
            : {},
      });
    } else if (typeof type === 'string' && BUILTIN_TOOL_TYPES.has(type)) {
      declarations.push({
        name: type,
        description: '',
        inputSchema: { type: 'object' },
        builtin: { kind: type as BuiltinToolKind },
      });
    } else {
      hostedTools.push(providerTool({ openai: tool }));
    }
  }
  return {
    tools: declarations,
    hostedTools,
    strict: functions.length > 0 && functions.every((fn) => fn['strict'] === true),
  };
}

function results(
  outputs: readonly { callId: string; content: string }[],
  recordedCallIds: readonly string[],
  turn: ModelTurn | undefined,
): ToolResultPart[] {
  const calls: ToolCallPart[] = turn === undefined ? [] : toolCallsOf(turn.content);
  return outputs.map((output) => {
    const call = calls[recordedCallIds.indexOf(output.callId)];
    if (call === undefined) throw new Error(`recorded result for ${output.callId} has no call in the adapter's turn`);
    return { type: 'tool_result', callId: call.id, name: call.name, content: output.content, isError: false };
  });
}

export function chatRequestFromRecorded(body: JsonObject, turns: readonly ModelTurn[]): RecordedRequestShape {
  const messages: Message[] = [];
  let system: string | undefined;
  let systemRole: 'system' | 'developer' = 'system';
  let assistants = 0;
  let lastCallIds: string[] = [];
  let pending: { callId: string; content: string }[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    messages.push({ role: 'tool', content: results(pending, lastCallIds, turns[assistants - 1]) });
    pending = [];
  };
  for (const message of objects(body['messages'])) {
    const role = message['role'];
    if (role !== 'tool') flush();
    if (role === 'system' || role === 'developer') {
      if (system === undefined) {
        system = text(message['content']);
        systemRole = role;
      } else messages.push({ role: 'system', content: text(message['content']) });
    } else if (role === 'user') {
      messages.push({ role: 'user', content: text(message['content']) });
    } else if (role === 'assistant') {
      const turn = turns[assistants];
      if (turn === undefined) throw new Error('recorded history holds an assistant turn this cassette never produced');
      assistants += 1;
      lastCallIds = objects(message['tool_calls']).map((call) => String(call['id']));
      messages.push(assistantOf(turn));
    } else if (role === 'tool') {
      pending.push({ callId: String(message['tool_call_id']), content: text(message['content']) });
    }
  }
  flush();
  const { tools, hostedTools, strict } = declarationsOf(body['tools']);
  const toolChoice = toolChoiceOf(body['tool_choice']);
  const request: ModelRequest = {
    ...(system === undefined ? {} : { system }),
    messages,
    tools,
    ...(hostedTools.length === 0 ? {} : { hostedTools }),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(typeof body['parallel_tool_calls'] === 'boolean' ? { parallelToolCalls: body['parallel_tool_calls'] } : {}),
  };
  return { request, systemRole, strict };
}

/** The output items of calls the client answers, paired with results by their position among these. */
const CLIENT_CALLS: ReadonlySet<string> = new Set([
  'function_call',
  'custom_tool_call',
  'apply_patch_call',
  'shell_call',
  'local_shell_call',
]);

/** Every item of the model's output: any typed item but a message of another role, and a call's answer. */
function isAssistantItem(item: JsonObject): boolean {
  const type = item['type'];
  if (item['role'] === 'assistant') return true;
  return typeof type === 'string' && type !== 'message' && !isCallOutput(item);
}

/** An answer the client sent for one of its calls (`function_call_output`, `custom_tool_call_output`…). */
function isCallOutput(item: JsonObject): boolean {
  return typeof item['type'] === 'string' && item['type'].endsWith('_output') && typeof item['call_id'] === 'string';
}

export function responsesRequestFromRecorded(body: JsonObject, turns: readonly ModelTurn[]): RecordedRequestShape {
  const messages: Message[] = [];
  const items = typeof body['input'] === 'string' ? [{ role: 'user', content: body['input'] }] : objects(body['input']);
  let assistants = 0;
  let groupCallIds: string[] = [];
  let inAssistantGroup = false;
  let pending: { callId: string; content: string }[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    messages.push({ role: 'tool', content: results(pending, groupCallIds, turns[assistants - 1]) });
    pending = [];
  };
  for (const item of items) {
    if (isCallOutput(item)) {
      inAssistantGroup = false;
      pending.push({ callId: String(item['call_id']), content: text(item['output']) });
      continue;
    }
    flush();
    if (isAssistantItem(item)) {
      if (!inAssistantGroup) {
        const turn = turns[assistants];
        if (turn === undefined)
          throw new Error('recorded history holds an assistant turn this cassette never produced');
        assistants += 1;
        groupCallIds = [];
        messages.push(assistantOf(turn));
        inAssistantGroup = true;
      }
      if (CLIENT_CALLS.has(String(item['type']))) groupCallIds.push(String(item['call_id']));
      continue;
    }
    inAssistantGroup = false;
    if (item['role'] === 'system' || item['role'] === 'developer') {
      messages.push({ role: 'system', content: text(item['content']) });
    } else {
      messages.push({ role: 'user', content: text(item['content']) });
    }
  }
  flush();
  const { tools, hostedTools, strict } = declarationsOf(body['tools']);
  const toolChoice = toolChoiceOf(body['tool_choice']);
  const instructions =
    typeof body['instructions'] === 'string' && body['instructions'] !== '' ? body['instructions'] : undefined;
  const request: ModelRequest = {
    ...(instructions === undefined ? {} : { system: instructions }),
    messages,
    tools,
    ...(hostedTools.length === 0 ? {} : { hostedTools }),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(typeof body['parallel_tool_calls'] === 'boolean' ? { parallelToolCalls: body['parallel_tool_calls'] } : {}),
  };
  return { request, systemRole: 'system', strict };
}

/**
 * The placement of history items, comparable between a recorded body and ours: each item's kind, and for
 * each result the position of the call it answers. Recorded empty assistant texts (`content: ""`, which one
 * recorder always adds) are not part of the shape.
 */
export function chatHistoryShape(body: JsonObject): string[] {
  let callIds: string[] = [];
  return objects(body['messages']).map((message) => {
    const calls = objects(message['tool_calls']).map((call) => String(call['id']));
    if (message['role'] === 'assistant') {
      callIds = calls;
      return `assistant(calls=${calls.length})`;
    }
    if (message['role'] === 'tool') return `tool(answers call #${callIds.indexOf(String(message['tool_call_id']))})`;
    return String(message['role']);
  });
}

export function responsesHistoryShape(body: JsonObject): string[] {
  const items = typeof body['input'] === 'string' ? [{ role: 'user', content: body['input'] }] : objects(body['input']);
  const callIds: string[] = [];
  const shape: string[] = [];
  for (const item of items) {
    const type = typeof item['type'] === 'string' ? item['type'] : 'message';
    if (type === 'message' && item['role'] === 'assistant' && text(item['content']) === '') continue;
    if (CLIENT_CALLS.has(type)) callIds.push(String(item['call_id']));
    if (isCallOutput(item)) shape.push(`${type}(answers call #${callIds.indexOf(String(item['call_id']))})`);
    else shape.push(type === 'message' ? `message:${String(item['role'])}` : type);
  }
  return shape;
}

/** The adapter's own turn as the loop keeps it in the history: its parts and its metadata (hosted items…). */
function assistantOf(turn: ModelTurn): Message {
  return turn.providerMetadata === undefined
    ? { role: 'assistant', content: turn.content }
    : { role: 'assistant', content: turn.content, providerMetadata: turn.providerMetadata };
}
