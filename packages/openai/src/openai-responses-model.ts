import type { Model, ModelRequest, ModelTurn, StreamEvent } from '@toolcircuit/core';
import { finalAnswerEvents, finalAnswerTurn } from '@toolcircuit/core/provider';
import { buildOpenAIResponsesRequest, buildOpenAIResponsesStreamRequest } from './build-openai-responses-request.js';
import { mapOpenAIResponsesError } from './map-openai-responses-error.js';
import {
  createOpenAIResponsesClient,
  type OpenAIResponsesModelOptions,
  resolveOpenAIResponsesSettings,
} from './openai-responses-options.js';
import { prepareOpenAIResponsesTools } from './openai-responses-prepare-tools.js';
import { streamOpenAIResponses } from './openai-responses-stream.js';
import { nativeResponsesTools } from './openai-responses-tool-search.js';
import { openAIFinalAnswer } from './openai-shared-final-answer.js';
import { validateOpenAIOptions } from './openai-shared-options.js';
import { sdkRequestOptions } from './openai-shared-request-options.js';
import { parsedAnswer } from './openai-shared-response-shape.js';
import { cacheByToolsArray } from './openai-shared-tool-set.js';
import { parseOpenAIResponsesResponse } from './parse-openai-responses-response.js';

/**
 * A {@link Model} over the OpenAI Responses API (`POST /responses`) through the official `openai` SDK.
 * Stateless by default (`store: false`, whole history re-sent each turn, reasoning items carried in
 * `providerMetadata.openai`). The client (and the API key check) is built here, so a missing key fails now.
 */
export function createOpenAIResponsesModel(options: OpenAIResponsesModelOptions): Model {
  validateOpenAIOptions(options);
  const settings = resolveOpenAIResponsesSettings(options);
  const client = createOpenAIResponsesClient(options);
  const prepareTools = cacheByToolsArray((tools) => prepareOpenAIResponsesTools(tools, settings, settings.provider));
  const provider = settings.provider;

  return {
    provider,
    modelId: settings.model,

    async generate(request: ModelRequest): Promise<ModelTurn> {
      const tools = nativeResponsesTools(request, settings.toolSearch, settings) ?? prepareTools(request.tools);
      const body = buildOpenAIResponsesRequest(request, tools, settings);
      try {
        const pending = client.responses.create(body, sdkRequestOptions(request, client, body));
        const response = await parsedAnswer(pending, provider, 'output');
        return finalAnswerTurn(
          parseOpenAIResponsesResponse(response, { ...tools.toolSet, provider }),
          openAIFinalAnswer(request),
        );
      } catch (error) {
        throw mapOpenAIResponsesError(error, provider);
      }
    },

    stream(request: ModelRequest): AsyncIterable<StreamEvent> {
      const tools = nativeResponsesTools(request, settings.toolSearch, settings) ?? prepareTools(request.tools);
      const body = buildOpenAIResponsesStreamRequest(request, tools, settings);
      return finalAnswerEvents(
        streamOpenAIResponses({ client, body, request, context: { ...tools.toolSet, provider } }),
        openAIFinalAnswer(request),
      );
    },
  };
}
