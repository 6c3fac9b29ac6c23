import type { AssistantContentPart, JsonObject, JsonValue, ModelTurn, ToolCallPart, Usage } from '@toolcircuit/core';
import { ProviderError, unsupportedCallError } from '@toolcircuit/core/provider';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { mapOpenAIChatStopReason } from './map-openai-chat-stop-reason.js';
import { sourcesOfAnnotations } from './openai-shared-sources.js';
import { CUT_OFF_ERROR, toToolCallPart, uniqueCallId } from './openai-shared-tool-calls.js';
import { type OpenAIParseContext, openAITurn, type ParsedOpenAITurn } from './openai-shared-turn.js';

/** One choice's content, from a whole response or assembled from stream chunks. */
export interface OpenAIChatChoiceSnapshot {
  readonly content: string | null;
  readonly refusal: string | null;
  readonly toolCalls: readonly ChatToolCallSnapshot[];
  /** `message.annotations` (search models' `url_citation`s), read as the text's sources. */
  readonly annotations?: readonly JsonValue[];
  /**
   * Message fields this adapter has no neutral meaning for (`audio`, a compatible server's own fields), by
   * name: each becomes a `provider` part. A string `reasoning_content` / `reasoning` (DeepSeek, vLLM,
   * OpenRouter…) is read as reasoning instead.
   */
  readonly extras?: Readonly<Record<string, JsonValue>>;
  /** `null`: the response had none (non-conforming server); a stream without one never becomes a turn. */
  readonly finishReason: string | null;
  readonly usage: CompletionUsage | null | undefined;
  readonly metadata: JsonObject;
}

/** One call of a choice: a function call's JSON arguments, a custom tool call's text, or a type nobody can answer. */
export interface ChatToolCallSnapshot {
  readonly id?: string | undefined;
  readonly name: string;
  /** Function calls: the JSON text. Custom tool calls: the text itself. */
  readonly arguments: string;
  /** `custom`: a custom (text) tool call; another string: a call type this adapter does not know. */
  readonly type?: string;
}

/** The message fields this adapter reads; any other field with a value is kept as a `provider` part. */
const KNOWN_MESSAGE_FIELDS: ReadonlySet<string> = new Set([
  'role',
  'content',
  'refusal',
  'tool_calls',
  'function_call',
  'annotations',
]);

/** Reasoning text some compatible servers add to the message, under one of these names. */
const REASONING_FIELDS: readonly string[] = ['reasoning_content', 'reasoning'];

/** The message's fields this adapter does not read, with a value worth keeping (not null, not empty). */
export function extraFieldsOf(message: object): Record<string, JsonValue> {
  const extras: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(message)) {
    if (KNOWN_MESSAGE_FIELDS.has(key) || value === null || value === undefined || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    extras[key] = value as JsonValue;
  }
  return extras;
}

/** A whole Chat Completions response → the neutral turn (first choice only: toolcircuit never asks for `n > 1`). */
export function parseOpenAIChatResponse(completion: ChatCompletion, context: OpenAIParseContext): ModelTurn {
  const choice = completion.choices[0];
  if (choice === undefined) {
    throw new ProviderError({
      provider: context.provider,
      code: 'unknown',
      message: `response ${completion.id} has no choices`,
      retryable: false,
    });
  }
  const message = choice.message;
  const toolCalls = (message.tool_calls ?? []).map((call): ChatToolCallSnapshot => {
    if (call.type === 'function') return { id: call.id, name: call.function.name, arguments: call.function.arguments };
    if (call.type === 'custom')
      return { id: call.id, name: call.custom.name, arguments: call.custom.input, type: 'custom' };
    return {
      id: (call as { id?: string }).id,
      name: '',
      arguments: '',
      type: String((call as { type?: unknown }).type),
    };
  });
  // Legacy `function_call` (servers that predate tools) is read as one call without an id.
  if (toolCalls.length === 0 && message.function_call) {
    toolCalls.push({ id: '', name: message.function_call.name, arguments: message.function_call.arguments });
  }
  return buildOpenAIChatTurn(
    {
      content: message.content,
      refusal: message.refusal ?? null,
      toolCalls,
      annotations: (message.annotations ?? []) as unknown as JsonValue[],
      extras: extraFieldsOf(message),
      finishReason: choice.finish_reason,
      usage: completion.usage,
      metadata: chatResponseMetadata(completion),
    },
    context,
  ).turn;
}

/** Response-level data kept on the turn: ids and versions for audits, nothing that is sent back. */
export function chatResponseMetadata(source: {
  readonly id: string;
  readonly model: string;
  readonly system_fingerprint?: string | undefined;
  readonly service_tier?: string | null | undefined;
}): JsonObject {
  const metadata: JsonObject = { responseId: source.id, model: source.model };
  if (source.system_fingerprint) metadata['systemFingerprint'] = source.system_fingerprint;
  if (source.service_tier) metadata['serviceTier'] = source.service_tier;
  return metadata;
}

/**
 * Shared by generate() and the stream so both give the same turn. When the output limit cut the turn
 * (`length`), the last call is the one that may be unfinished (calls are emitted one after the other);
 * without any finish reason (a non-conforming response), none of the calls can be trusted.
 */
export function buildOpenAIChatTurn(snapshot: OpenAIChatChoiceSnapshot, context: OpenAIParseContext): ParsedOpenAITurn {
  const content: AssistantContentPart[] = [];
  const { provider } = context;
  const extras = { ...snapshot.extras };
  for (const field of REASONING_FIELDS) {
    const reasoning = extras[field];
    if (typeof reasoning !== 'string') continue;
    delete extras[field];
    content.push({ type: 'reasoning', text: reasoning, providerMetadata: { [provider]: { field } } });
  }
  if (snapshot.content) {
    const annotations = snapshot.annotations ?? [];
    const sources = sourcesOfAnnotations(snapshot.content, annotations);
    content.push({
      type: 'text',
      text: snapshot.content,
      ...(sources.length === 0 ? {} : { sources }),
      ...(annotations.length === 0 ? {} : { providerMetadata: { [provider]: { annotations: [...annotations] } } }),
    });
  }
  for (const [field, value] of Object.entries(extras)) {
    content.push({ type: 'provider', provider, kind: `message.${field}`, data: { [field]: value } });
  }
  if (snapshot.refusal) {
    content.push({ type: 'text', text: snapshot.refusal, providerMetadata: { [context.provider]: { refusal: true } } });
  }
  const seen = new Set<string>();
  const last = snapshot.toolCalls.length - 1;
  const incompleteToolCallIds: string[] = [];
  const unsupported: string[] = [];
  const calls: ToolCallPart[] = [];
  for (const [index, call] of snapshot.toolCalls.entries()) {
    const id = uniqueCallId(call.id, index, seen);
    if (call.type !== undefined && call.type !== 'custom') {
      // A call type nobody here can answer: kept as it came, and the turn becomes an `unsupported_call` error.
      unsupported.push(`tool_calls.${call.type}`);
      content.push({ type: 'provider', provider, kind: `tool_calls.${call.type}`, data: { id, type: call.type } });
      continue;
    }
    const cutOff = snapshot.finishReason === null || (snapshot.finishReason === 'length' && index === last);
    const part =
      call.type === 'custom'
        ? customCallPart(id, call, cutOff, context)
        : toToolCallPart({ id, providerName: call.name, arguments: call.arguments, cutOff }, context);
    if (cutOff) incompleteToolCallIds.push(part.id);
    calls.push(part);
  }
  content.push(...calls);
  const parsed = openAITurn(
    {
      content,
      stopReason: mapOpenAIChatStopReason(snapshot.finishReason, calls.length > 0),
      refused: Boolean(snapshot.refusal),
      usage: mapOpenAIChatUsage(snapshot.usage),
      metadata: snapshot.metadata,
      incompleteToolCallIds,
    },
    context.provider,
  );
  const [kind] = unsupported;
  if (kind !== undefined) throw unsupportedCallError(provider, kind, parsed.turn);
  return parsed;
}

/** A custom tool call: its text is the input, as it is (never parsed as JSON). */
function customCallPart(
  id: string,
  call: ChatToolCallSnapshot,
  cutOff: boolean,
  context: OpenAIParseContext,
): ToolCallPart {
  const base = { type: 'tool_call' as const, id, name: context.fromProviderName(call.name) };
  if (cutOff) return { ...base, input: undefined, rawInput: call.arguments, inputError: CUT_OFF_ERROR };
  return { ...base, input: call.arguments };
}

function mapOpenAIChatUsage(usage: CompletionUsage | null | undefined): Usage {
  if (!usage) return { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined };
  return {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    totalTokens: usage.total_tokens,
    cachedInputTokens: usage.prompt_tokens_details?.cached_tokens,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens,
  };
}
