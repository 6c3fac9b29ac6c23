import type { BuiltinToolKind, JsonObject, JsonValue, ToolCallPart } from '@toolcircuit/core';
import type { ResponseOutputItem } from 'openai/resources/responses/responses';
import { isToolSearchItem } from './openai-responses-tool-search.js';
import { asJsonObject } from './openai-shared-provider-options.js';
import { CUT_OFF_ERROR, type ToolCallContext } from './openai-shared-tool-calls.js';

/**
 * Output items of the tools the provider runs itself, which go back as input items unchanged: web search,
 * code interpreter, file search, image generation, and hosted MCP (the server's tool list, its calls, and a
 * request for the application's approval of one).
 */
const HOSTED_ITEMS: ReadonlySet<string> = new Set([
  'web_search_call',
  'code_interpreter_call',
  'file_search_call',
  'image_generation_call',
  'mcp_list_tools',
  'mcp_call',
  'mcp_approval_request',
]);

/** Calls of the built-in types the application runs, by item type: the catalogue kind and the arguments' field. */
const BUILTIN_CALLS: Readonly<Record<string, { readonly kind: BuiltinToolKind; readonly payload: string }>> = {
  apply_patch_call: { kind: 'apply_patch', payload: 'operation' },
  shell_call: { kind: 'shell', payload: 'action' },
  local_shell_call: { kind: 'local_shell', payload: 'action' },
};

/** What an output item is to the circuit. */
export type ItemRole =
  | { readonly role: 'hosted' }
  | { readonly role: 'builtin-call'; readonly kind: BuiltinToolKind; readonly payload: string }
  /** A request to act of a type this adapter does not know: nothing can answer it. */
  | { readonly role: 'unsupported-call' }
  | { readonly role: 'unknown' };

/**
 * The call ids answered inside the response itself: the provider ran those calls (a shell in a hosted
 * container writes `shell_call_output` next to its `shell_call`), so they are hosted, not requests to act.
 */
export function answeredInResponse(output: readonly ResponseOutputItem[]): ReadonlySet<string> {
  const answered = new Set<string>();
  for (const item of output) {
    const record = item as unknown as Record<string, unknown>;
    if (item.type.endsWith('_output') && typeof record['call_id'] === 'string') answered.add(record['call_id']);
  }
  return answered;
}

/**
 * The role of an item that is not a message, reasoning, function or custom tool call. A `*_call` with a
 * `call_id` nobody answered in the response is a request to act: a built-in type's is a call for the catalogue
 * tool of that type, any other cannot be answered. Anything else unknown is kept as a provider part.
 */
export function itemRole(item: ResponseOutputItem, answered: ReadonlySet<string>): ItemRole {
  if (HOSTED_ITEMS.has(item.type) || isToolSearchItem(item) || item.type.endsWith('_output')) return { role: 'hosted' };
  const callId = (item as unknown as Record<string, unknown>)['call_id'];
  if (!item.type.endsWith('_call') || typeof callId !== 'string') return { role: 'unknown' };
  if (answered.has(callId) || runsInContainer(item)) return { role: 'hosted' };
  const builtin = BUILTIN_CALLS[item.type];
  return builtin === undefined ? { role: 'unsupported-call' } : { role: 'builtin-call', ...builtin };
}

// A shell call in a hosted container (the tool's `environment`) is run by the provider.
function runsInContainer(item: ResponseOutputItem): boolean {
  const environment = (item as unknown as Record<string, unknown>)['environment'];
  if (typeof environment !== 'object' || environment === null) return false;
  const type = (environment as Record<string, unknown>)['type'];
  return typeof type === 'string' && type !== 'local';
}

/** A `custom_tool_call` as a neutral call: its `input` is the text, handed over as it is. */
export function customToolCallPart(
  item: Extract<ResponseOutputItem, { type: 'custom_tool_call' }>,
  id: string,
  context: ToolCallContext & { readonly provider: string },
  cutOff: boolean,
): ToolCallPart {
  const metadata: JsonObject = { itemType: 'custom_tool_call' };
  if (item.id !== undefined) metadata['itemId'] = item.id;
  const base = {
    type: 'tool_call' as const,
    id,
    name: context.fromProviderName(item.name),
    providerMetadata: { [context.provider]: metadata },
  };
  if (cutOff) return { ...base, input: undefined, rawInput: item.input, inputError: CUT_OFF_ERROR };
  return { ...base, input: item.input };
}

/**
 * A built-in type's call (`apply_patch_call`, `shell_call`, `local_shell_call`) as a call to the catalogue tool
 * of that type (its own name when the catalogue has none: the executor then refuses it as an unknown tool,
 * which the application sees). The input is the call's own arguments; the item is kept whole to go back.
 */
export function builtinCallPart(
  item: ResponseOutputItem,
  role: Extract<ItemRole, { role: 'builtin-call' }>,
  id: string,
  context: ToolCallContext & { readonly provider: string },
  cutOff: boolean,
): ToolCallPart {
  const whole = asJsonObject(item);
  const payload: JsonValue | undefined = whole[role.payload];
  const base = {
    type: 'tool_call' as const,
    id,
    name: context.builtinTool(role.kind) ?? role.kind,
    providerMetadata: { [context.provider]: { itemType: item.type, item: whole } },
  };
  if (cutOff || payload === undefined) {
    return { ...base, input: undefined, rawInput: JSON.stringify(payload ?? null), inputError: CUT_OFF_ERROR };
  }
  return { ...base, input: payload };
}

/** Whether a call item was cut before it was complete (output limit, or still in progress at the end). */
export function isCutOff(item: ResponseOutputItem): boolean {
  const status = (item as unknown as Record<string, unknown>)['status'];
  return status === 'incomplete' || status === 'in_progress';
}
