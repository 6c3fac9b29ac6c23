import type { ModelRequest } from '@toolcircuit/core';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import { convertToOpenAIChatMessages } from './convert-to-openai-chat-messages.js';
import type { OpenAIChatSettings } from './openai-chat-options.js';
import { openAIChatOutputFields } from './openai-chat-output-format.js';
import { type OpenAIChatTools, openAIChatToolFields } from './openai-chat-prepare-tools.js';
import { mergeProviderOptions, providerOptionsOf } from './openai-shared-provider-options.js';

/** The body of a non-streaming Chat Completions call: the adapter's fields, then the options bag over them. */
export function buildOpenAIChatRequest(
  request: ModelRequest,
  tools: OpenAIChatTools,
  settings: OpenAIChatSettings,
): ChatCompletionCreateParamsNonStreaming {
  const body: ChatCompletionCreateParamsNonStreaming = {
    model: settings.model,
    messages: convertToOpenAIChatMessages(request, {
      systemRole: settings.systemRole,
      customTools: settings.customTools,
      toProviderName: tools.toolSet.toProviderName,
      namingKey: tools.toolSet.namingKey,
    }),
    ...openAIChatToolFields(request, tools, settings.provider),
    ...openAIChatOutputFields(request),
  };
  if (request.maxOutputTokens !== undefined) body[settings.maxTokensParameter] = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  // `stream` is forced after the merge: the bag may add fields, not change which call this is.
  return { ...mergeProviderOptions(body, providerOptionsOf(request, settings.provider)), stream: false };
}

/** The same body for a streaming call, asking for the final usage chunk unless turned off. */
export function buildOpenAIChatStreamRequest(
  request: ModelRequest,
  tools: OpenAIChatTools,
  settings: OpenAIChatSettings,
): ChatCompletionCreateParamsStreaming {
  const { stream: _stream, ...body } = buildOpenAIChatRequest(request, tools, settings);
  const withUsage = settings.streamUsage && body.stream_options === undefined;
  return { ...body, ...(withUsage ? { stream_options: { include_usage: true } } : {}), stream: true };
}
