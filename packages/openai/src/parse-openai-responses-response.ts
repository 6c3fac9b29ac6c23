import type {
  AssistantContentPart,
  JsonObject,
  JsonValue,
  ModelTurn,
  UntrustedContent,
  Usage,
} from '@toolcircuit/core';
import { unsupportedCallError } from '@toolcircuit/core/provider';
import type { Response, ResponseOutputItem, ResponseUsage } from 'openai/resources/responses/responses';
import { mapOpenAIResponsesStopReason } from './map-openai-responses-stop-reason.js';
import {
  answeredInResponse,
  builtinCallPart,
  customToolCallPart,
  isCutOff,
  itemRole,
} from './openai-responses-items.js';
import { toolsLoadedBySearch } from './openai-responses-tool-search.js';
import { responsesUntrustedContent } from './openai-responses-untrusted-content.js';
import { providerErrorFromFields } from './openai-shared-map-error.js';
import { asJsonObject } from './openai-shared-provider-options.js';
import { sourcesOfAnnotations } from './openai-shared-sources.js';
import { toToolCallPart, uniqueCallId } from './openai-shared-tool-calls.js';
import { type OpenAIParseContext, openAITurn, type ParsedOpenAITurn } from './openai-shared-turn.js';

/** A response's output, whole or assembled from stream events. */
export interface OpenAIResponsesSnapshot {
  readonly output: readonly ResponseOutputItem[];
  /** `undefined`: the response had none; a stream without its final response event never becomes a turn. */
  readonly status: string | undefined;
  readonly incompleteReason: string | undefined;
  readonly usage: ResponseUsage | undefined;
  readonly metadata: JsonObject;
}

/** A whole Responses API response → the neutral turn. A `failed` response is thrown as a ProviderError. */
export function parseOpenAIResponsesResponse(response: Response, context: OpenAIParseContext): ModelTurn {
  if (response.status === 'failed') {
    throw providerErrorFromFields(response.error ?? { message: `response ${response.id} failed` }, context.provider);
  }
  return buildOpenAIResponsesTurn(responsesSnapshot(response), context).turn;
}

export function responsesSnapshot(response: Response): OpenAIResponsesSnapshot {
  return {
    output: response.output,
    status: response.status,
    incompleteReason: response.incomplete_details?.reason ?? undefined,
    usage: response.usage,
    metadata: responsesMetadata(response),
  };
}

/** Response-level data kept on the turn, for audits: nothing here is needed on the next turn. */
function responsesMetadata(response: Pick<Response, 'id' | 'model' | 'service_tier'>): JsonObject {
  const metadata: JsonObject = { responseId: response.id, model: response.model };
  if (response.service_tier) metadata['serviceTier'] = response.service_tier;
  return metadata;
}

/**
 * Shared by generate() and the stream so both give the same turn. Items keep their order: a reasoning item
 * becomes a reasoning part holding the whole item (sent back unchanged), a message's texts become text parts
 * carrying the item id and their annotations as sources, a function call a tool call keyed by `call_id`, a
 * custom tool call a call whose input is its text, a built-in type's call (`apply_patch_call`…) a call to the
 * catalogue tool of that type. A call whose item is not `completed` (cut by `max_output_tokens`, or still in
 * progress in a final response sent without its output) is marked as cut off. Hosted tools' items are kept in
 * the turn's metadata (`hostedItems`), and an item of a type this adapter does not know becomes a `provider`
 * part in its place: nothing is dropped. A request to act nobody can answer (an unknown `*_call`) makes the
 * turn an `unsupported_call` error, which carries the turn.
 */
export function buildOpenAIResponsesTurn(
  snapshot: OpenAIResponsesSnapshot,
  context: OpenAIParseContext,
): ParsedOpenAITurn {
  const { provider } = context;
  const content: AssistantContentPart[] = [];
  const incompleteToolCallIds: string[] = [];
  const seen = new Set<string>();
  let callIndex = 0;
  let refused = false;
  const hostedItems: { at: number; item: JsonObject }[] = [];
  const untrusted: UntrustedContent[] = [];
  const unsupported: string[] = [];
  const answered = answeredInResponse(snapshot.output);
  for (const item of snapshot.output) {
    switch (item.type) {
      case 'reasoning': {
        const summary = item.summary.map((part) => part.text);
        const text =
          summary.length > 0 ? summary.join('\n\n') : (item.content ?? []).map((part) => part.text).join('\n\n');
        content.push({ type: 'reasoning', text, providerMetadata: { [provider]: { item: asJsonObject(item) } } });
        break;
      }
      case 'message':
        for (const part of item.content) {
          const metadata: JsonObject = { itemId: item.id };
          if (item.phase) metadata['phase'] = item.phase;
          if (part.type === 'refusal') {
            refused = true;
            content.push({
              type: 'text',
              text: part.refusal,
              providerMetadata: { [provider]: { ...metadata, refusal: true } },
            });
          } else if (part.type === 'output_text') {
            const annotations = (part.annotations ?? []) as unknown as JsonValue[];
            const sources = sourcesOfAnnotations(part.text, annotations);
            // The raw annotations go back with the text; the sources are their neutral reading.
            if (annotations.length > 0) metadata['annotations'] = annotations;
            content.push({
              type: 'text',
              text: part.text,
              ...(sources.length === 0 ? {} : { sources }),
              providerMetadata: { [provider]: metadata },
            });
          } else {
            // A content part of a new type: kept as the message item holding only it, so it can go back.
            const data = asJsonObject({ ...item, content: [part] });
            content.push({ type: 'provider', provider, kind: `message.${(part as { type: string }).type}`, data });
          }
        }
        break;
      case 'function_call': {
        const cutOff = item.status === 'incomplete' || item.status === 'in_progress';
        const part = toToolCallPart(
          {
            id: uniqueCallId(item.call_id, callIndex, seen),
            providerName: item.name,
            arguments: item.arguments,
            cutOff,
            ...(item.id === undefined ? {} : { providerMetadata: { [provider]: { itemId: item.id } } }),
          },
          context,
        );
        callIndex += 1;
        if (cutOff) incompleteToolCallIds.push(part.id);
        content.push(part);
        break;
      }
      case 'custom_tool_call': {
        const cutOff = isCutOff(item);
        const part = customToolCallPart(item, uniqueCallId(item.call_id, callIndex, seen), context, cutOff);
        callIndex += 1;
        if (cutOff) incompleteToolCallIds.push(part.id);
        content.push(part);
        break;
      }
      default: {
        // Outside content a hosted tool put into the model's context, before the parts that follow it.
        const marked = responsesUntrustedContent(asJsonObject(item), content.length);
        if (marked !== undefined) untrusted.push(marked);
        const role = itemRole(item, answered);
        if (role.role === 'hosted') {
          // The provider ran it (web search, code interpreter, hosted MCP, the tool search of `toolSearch:
          // 'native'`…): kept whole, with the number of parts before it, so the next request sends it back in place.
          hostedItems.push({ at: content.length, item: asJsonObject(item) });
        } else if (role.role === 'builtin-call') {
          const cutOff = isCutOff(item);
          const callId = (item as unknown as { call_id: string }).call_id;
          const part = builtinCallPart(item, role, uniqueCallId(callId, callIndex, seen), context, cutOff);
          callIndex += 1;
          if (cutOff) incompleteToolCallIds.push(part.id);
          content.push(part);
        } else {
          if (role.role === 'unsupported-call') unsupported.push(item.type);
          content.push({ type: 'provider', provider, kind: item.type, data: asJsonObject(item) });
        }
        break;
      }
    }
  }
  const parsed = openAITurn(
    {
      content,
      stopReason: mapOpenAIResponsesStopReason(snapshot.status, snapshot.incompleteReason, callIndex > 0),
      refused,
      usage: mapOpenAIResponsesUsage(snapshot.usage),
      metadata: hostedItems.length === 0 ? snapshot.metadata : { ...snapshot.metadata, hostedItems },
      incompleteToolCallIds,
    },
    provider,
  );
  const loaded = toolsLoadedBySearch(hostedItems, context.fromProviderName);
  const result =
    loaded.length === 0 && untrusted.length === 0
      ? parsed
      : {
          ...parsed,
          turn: {
            ...parsed.turn,
            ...(loaded.length === 0 ? {} : { loadedTools: loaded }),
            ...(untrusted.length === 0 ? {} : { untrustedContent: untrusted }),
          },
        };
  const [kind] = unsupported;
  if (kind !== undefined) throw unsupportedCallError(provider, kind, result.turn);
  return result;
}

function mapOpenAIResponsesUsage(usage: ResponseUsage | undefined): Usage {
  if (usage === undefined) return { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined };
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    totalTokens: usage.total_tokens,
    cachedInputTokens: usage.input_tokens_details?.cached_tokens,
    reasoningTokens: usage.output_tokens_details?.reasoning_tokens,
  };
}
