import type {
  Usage as AnthropicUsage,
  ContentBlock,
  Message,
  MessageDeltaUsage,
} from '@anthropic-ai/sdk/resources/messages';
import type {
  AssistantContentPart,
  JsonObject,
  JsonValue,
  ModelTurn,
  ProviderPart,
  ToolCallPart,
  Usage,
} from '@toolcircuit/core';
import { toolCallsOf, unsupportedCallError } from '@toolcircuit/core/provider';
import { restoreTextInput } from '@toolcircuit/schema';
import { sourcesOfCitations } from './anthropic-citations.js';
import { neutralToolName } from './anthropic-prepare-tools.js';
import type { AnthropicToolNames } from './anthropic-tool-names.js';
import { toolsLoadedBySearch } from './anthropic-tool-search.js';
import { anthropicUntrustedContent } from './anthropic-untrusted-content.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

/** The text put in `inputError` of a call the output limit cut off. */
export const CUT_OFF_INPUT_ERROR =
  'the tool call was cut off (max_tokens) before its arguments were complete; it was not run';

/**
 * The blocks of server tools Anthropic runs itself (web search and fetch, code execution, tool search, the MCP
 * connector, container uploads): they have no neutral part and are kept as server blocks. Any other block
 * this adapter does not read is a `provider` part.
 */
const SERVER_BLOCKS: ReadonlySet<string> = new Set([
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
]);

/** Whether a block the adapter does not read is a server tool's (kept as a server block) rather than unknown. */
export function isServerBlock(type: string): boolean {
  return SERVER_BLOCKS.has(type);
}

/**
 * A block of a type nobody here reads, as a `provider` part; a `*_use` block of an unknown type is a request to
 * act that nothing can answer (the client answers only `tool_use`), which the caller turns into an error.
 */
export function unknownBlockPart(block: JsonObject): { part: ProviderPart; requestsAction: boolean } {
  const kind = typeof block['type'] === 'string' ? block['type'] : 'unknown';
  return {
    part: { type: 'provider', provider: 'anthropic', kind, data: block },
    requestsAction: kind.endsWith('_use'),
  };
}

/**
 * Messages API response → neutral turn. Thinking blocks keep their `signature` (or redacted `data`) in
 * `providerMetadata.anthropic` so the next request can send them back unchanged. When the turn stopped on
 * `max_tokens` with a tool_use as its last block, that call may be partial: it gets `inputError` and no
 * `input`, so it is never run. Server-tool blocks (code execution, web search…) have no neutral part: they
 * are kept whole in the turn's `providerMetadata.anthropic.serverBlocks`, with the number of neutral parts
 * before each, and sent back in place; the response's `container` id is kept for the same reason. A block of
 * a type this adapter does not know is a `provider` part in its place (sent back there); one that asks the
 * client to act (an unknown `*_use`) makes the turn an `unsupported_call` error, which carries the turn.
 */
export function parseAnthropicResponse(message: Message, names: AnthropicToolNames): ModelTurn {
  const content: AssistantContentPart[] = [];
  const serverBlocks: ServerBlock[] = [];
  const unsupported: string[] = [];
  for (const block of message.content) {
    const part = parseAnthropicBlock(block, names);
    const whole = block as unknown as JsonObject;
    if (part !== undefined) content.push(part);
    else if (isServerBlock(block.type)) serverBlocks.push({ before: content.length, block: whole });
    else {
      const unknown = unknownBlockPart(whole);
      content.push(unknown.part);
      if (unknown.requestsAction) unsupported.push(unknown.part.kind);
    }
  }
  const last = content.at(-1);
  if (
    message.stop_reason === 'max_tokens' &&
    last?.type === 'tool_call' &&
    message.content.at(-1)?.type === 'tool_use'
  ) {
    content[content.length - 1] = cutOffCall(last, JSON.stringify(last.input), CUT_OFF_INPUT_ERROR);
  }
  const stopDetails = (message as unknown as { stop_details?: JsonValue }).stop_details;
  const turn = assembleAnthropicTurn(
    content,
    {
      ...message,
      container: message.container?.id ?? undefined,
      serverBlocks,
      contextManagement: contextManagementOf(message),
      ...(isObject(stopDetails) ? { stopDetails } : {}),
    },
    names,
  );
  const [kind] = unsupported;
  if (kind !== undefined) throw unsupportedCallError('anthropic', kind, turn);
  return turn;
}

/** A response block with no neutral part, and how many neutral parts came before it. */
export interface ServerBlock {
  readonly before: number;
  readonly block: JsonObject;
}

/** What a turn is made of besides its content: the response envelope, whole or assembled from a stream. */
export interface AnthropicEnvelope {
  readonly id: string;
  readonly model: string;
  readonly stop_reason: string | null;
  readonly stop_sequence: string | null;
  readonly usage: AnthropicUsage | MessageDeltaUsage | undefined;
  /** Id of the code-execution container the next request must name again. */
  readonly container: string | undefined;
  readonly serverBlocks: readonly ServerBlock[];
  /** What context editing did (`context_management.applied_edits`), when the request asked for it. */
  readonly contextManagement?: JsonObject | undefined;
  /** Why the model stopped, in detail (a refusal's category and explanation), when the API says. */
  readonly stopDetails?: JsonObject;
}

/**
 * The `context_management` a response or a `message_delta` event carries (SDK 1.14 types it on the beta
 * Messages API only, so it is read as what it is: JSON the API sent).
 */
export function contextManagementOf(value: object): JsonObject | undefined {
  const found: unknown = (value as { context_management?: unknown }).context_management;
  return typeof found === 'object' && found !== null && !Array.isArray(found) ? (found as JsonObject) : undefined;
}

/** The neutral turn from parsed content and the response envelope (shared by generate and stream). */
export function assembleAnthropicTurn(
  content: readonly AssistantContentPart[],
  envelope: AnthropicEnvelope,
  names: AnthropicToolNames,
): ModelTurn {
  // Tools Anthropic's own tool search loaded in this turn: the loop may let calls to them through now.
  const loaded = toolsLoadedBySearch(envelope.serverBlocks, names);
  // Server-tool results (web search, fetch, code execution…) are outside content the later calls were made after.
  const untrusted = anthropicUntrustedContent(envelope.serverBlocks);
  return {
    content,
    ...(loaded.length === 0 ? {} : { loadedTools: loaded }),
    stopReason: mapAnthropicStopReason(envelope.stop_reason, toolCallsOf(content).length > 0),
    usage: convertAnthropicUsage(envelope.usage),
    providerMetadata: { anthropic: responseMetadata(envelope) },
    ...(untrusted === undefined ? {} : { untrustedContent: untrusted }),
  };
}

/** One response content block → its neutral part; server-tool and unknown blocks give `undefined`. */
export function parseAnthropicBlock(block: ContentBlock, names: AnthropicToolNames): AssistantContentPart | undefined {
  switch (block.type) {
    case 'text': {
      const citations = (block.citations ?? []) as unknown as JsonValue[];
      if (citations.length === 0) return { type: 'text', text: block.text };
      // The citations go back with the text (web search ones need their encrypted index); sources read them.
      return {
        type: 'text',
        text: block.text,
        sources: sourcesOfCitations(citations),
        providerMetadata: { anthropic: { citations } },
      };
    }
    case 'thinking':
      return {
        type: 'reasoning',
        text: block.thinking,
        providerMetadata: { anthropic: { signature: block.signature } },
      };
    case 'redacted_thinking':
      return { type: 'reasoning', text: '', providerMetadata: { anthropic: { data: block.data } } };
    case 'tool_use':
      return callOf(names, block.id, block.name, block.input, block.caller);
    default:
      return undefined;
  }
}

/**
 * The neutral call of a `tool_use` block: a text tool's (declared as a one-string function) carries its text,
 * any other its decoded input.
 */
export function callOf(
  names: AnthropicToolNames,
  id: string,
  providerName: string,
  input: unknown,
  caller?: unknown,
): ToolCallPart {
  const name = neutralToolName(names, providerName);
  const call = toolCall(id, name, input, caller);
  if (!names.textTools.has(name) || call.inputError !== undefined) return call;
  const restored = restoreTextInput(input);
  if (restored.ok) return { ...call, input: restored.text };
  return { ...call, input: undefined, rawInput: JSON.stringify(input ?? null), inputError: restored.error };
}

/** A neutral call from a decoded `input`; Anthropic always sends an object, so absent means "no arguments". */
export function toolCall(id: string, name: string, input: unknown, caller?: unknown): ToolCallPart {
  const meta = callerMetadata(caller);
  const extra = meta === undefined ? {} : { providerMetadata: { anthropic: meta } };
  if (input === undefined || input === null) return { type: 'tool_call', id, name, input: {}, ...extra };
  if (typeof input !== 'object' || Array.isArray(input)) {
    return {
      type: 'tool_call',
      id,
      name,
      input: undefined,
      rawInput: JSON.stringify(input),
      inputError: 'tool input is not a JSON object',
      ...extra,
    };
  }
  return { type: 'tool_call', id, name, input, ...extra };
}

/** The same call marked as cut off: kept in the turn (its tool_use needs a tool_result) but never run. */
export function cutOffCall(call: ToolCallPart, rawInput: string, inputError: string): ToolCallPart {
  const { input: _input, ...rest } = call;
  return { ...rest, input: undefined, rawInput, inputError };
}

// Only a non-default caller (programmatic tool calling) must travel back; `direct` is the default.
function callerMetadata(caller: unknown): JsonObject | undefined {
  if (typeof caller !== 'object' || caller === null) return undefined;
  if ((caller as { type?: unknown }).type === 'direct') return undefined;
  return { caller: caller as JsonObject };
}

/** Anthropic's `input_tokens` excludes cache reads and writes; the neutral count includes them. */
export function convertAnthropicUsage(usage: AnthropicUsage | MessageDeltaUsage | undefined): Usage {
  if (usage === undefined) return { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined };
  const uncached = usage.input_tokens ?? undefined;
  const cacheRead = usage.cache_read_input_tokens ?? undefined;
  const cacheWrite = usage.cache_creation_input_tokens ?? undefined;
  const inputTokens = uncached === undefined ? undefined : uncached + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const outputTokens = usage.output_tokens;
  const result: Usage = {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens === undefined ? undefined : inputTokens + outputTokens,
  };
  const reasoningTokens = usage.output_tokens_details?.thinking_tokens;
  return {
    ...result,
    ...(cacheRead === undefined ? {} : { cachedInputTokens: cacheRead }),
    // Written to the cache: billed above the base input rate, so a price needs them apart (only when some were).
    ...(cacheWrite === undefined || cacheWrite === 0 ? {} : { cacheWriteInputTokens: cacheWrite }),
    ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
  };
}

function responseMetadata(message: AnthropicEnvelope): JsonObject {
  const meta: JsonObject = { id: message.id, model: message.model };
  if (message.stop_sequence !== null && message.stop_sequence !== undefined)
    meta['stopSequence'] = message.stop_sequence;
  const cacheWrite = message.usage?.cache_creation_input_tokens;
  if (typeof cacheWrite === 'number') meta['cacheCreationInputTokens'] = cacheWrite;
  if (message.container !== undefined) meta['container'] = message.container;
  if (message.contextManagement !== undefined) meta['contextManagement'] = message.contextManagement;
  if (message.serverBlocks.length > 0) {
    meta['serverBlocks'] = message.serverBlocks.map(({ before, block }) => ({ before, block }));
  }
  if (message.stopDetails !== undefined) meta['stopDetails'] = message.stopDetails;
  return meta;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
