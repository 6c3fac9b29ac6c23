import type { AssistantContentPart, JsonObject, ModelTurn, ToolCallPart, Usage } from '@toolcircuit/core';
import { ProviderError } from '@toolcircuit/core/provider';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { mapOpenAIChatStopReason } from './map-openai-chat-stop-reason.js';
import { toToolCallPart, uniqueCallId } from './openai-shared-tool-calls.js';
import { type OpenAIParseContext, openAITurn, type ParsedOpenAITurn } from './openai-shared-turn.js';

/** One choice's content, from a whole response or assembled from stream chunks. */
export interface OpenAIChatChoiceSnapshot {
  readonly content: string | null;
  readonly refusal: string | null;
  readonly toolCalls: readonly {
    readonly id?: string | undefined;
    readonly name: string;
    readonly arguments: string;
  }[];
  /** `null`: the response had none (non-conforming server); a stream without one never becomes a turn. */
  readonly finishReason: string | null;
  readonly usage: CompletionUsage | null | undefined;
  readonly metadata: JsonObject;
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
  const toolCalls = (message.tool_calls ?? []).flatMap((call) =>
    // Custom (free-text) tools are never declared by this adapter, so only function calls can come back.
    call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : [],
  );
  // Legacy `function_call` (servers that predate tools) is read as one call without an id.
  if (toolCalls.length === 0 && message.function_call) {
    toolCalls.push({ id: '', name: message.function_call.name, arguments: message.function_call.arguments });
  }
  return buildOpenAIChatTurn(
    {
      content: message.content,
      refusal: message.refusal ?? null,
      toolCalls,
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
  if (snapshot.content) content.push({ type: 'text', text: snapshot.content });
  if (snapshot.refusal) {
    content.push({ type: 'text', text: snapshot.refusal, providerMetadata: { [context.provider]: { refusal: true } } });
  }
  const seen = new Set<string>();
  const last = snapshot.toolCalls.length - 1;
  const incompleteToolCallIds: string[] = [];
  const calls: ToolCallPart[] = snapshot.toolCalls.map((call, index) => {
    const cutOff = snapshot.finishReason === null || (snapshot.finishReason === 'length' && index === last);
    const part = toToolCallPart(
      { id: uniqueCallId(call.id, index, seen), providerName: call.name, arguments: call.arguments, cutOff },
      context,
    );
    if (cutOff) incompleteToolCallIds.push(part.id);
    return part;
  });
  content.push(...calls);
  return openAITurn(
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
