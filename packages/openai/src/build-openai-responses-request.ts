import type { ModelRequest } from '@toolcircuit/core';
import type {
  ResponseCreateParamsNonStreaming,
  ResponseCreateParamsStreaming,
} from 'openai/resources/responses/responses';
import { convertToOpenAIResponsesMessages } from './convert-to-openai-responses-messages.js';
import type { OpenAIResponsesSettings } from './openai-responses-options.js';
import { withOpenAIResponsesOutputFormat } from './openai-responses-output-format.js';
import { type OpenAIResponsesTools, openAIResponsesToolFields } from './openai-responses-prepare-tools.js';
import { mergeProviderOptions, providerOptionsOf } from './openai-shared-provider-options.js';

/** The body of a non-streaming Responses call: the adapter's fields, then the options bag over them. */
export function buildOpenAIResponsesRequest(
  request: ModelRequest,
  tools: OpenAIResponsesTools,
  settings: OpenAIResponsesSettings,
): ResponseCreateParamsNonStreaming {
  const { instructions, input } = convertToOpenAIResponsesMessages(request, {
    provider: settings.provider,
    toProviderName: tools.toolSet.toProviderName,
    namingKey: tools.toolSet.namingKey,
  });
  const body: ResponseCreateParamsNonStreaming = {
    model: settings.model,
    input,
    store: settings.store,
    ...openAIResponsesToolFields(request, tools, settings.provider),
  };
  if (instructions !== undefined) body.instructions = instructions;
  if (settings.includeEncryptedReasoning) body.include = ['reasoning.encrypted_content'];
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  // `stream` is forced after the merge: the bag may add fields, not change which call this is.
  const merged = mergeProviderOptions(body, providerOptionsOf(request, settings.provider));
  return { ...withOpenAIResponsesOutputFormat(merged, request), stream: false };
}

export function buildOpenAIResponsesStreamRequest(
  request: ModelRequest,
  tools: OpenAIResponsesTools,
  settings: OpenAIResponsesSettings,
): ResponseCreateParamsStreaming {
  return { ...buildOpenAIResponsesRequest(request, tools, settings), stream: true };
}
