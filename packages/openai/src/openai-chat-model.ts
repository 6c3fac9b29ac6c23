import type { Model, ModelRequest, ModelTurn, StreamEvent } from '@toolcircuit/core';
import { finalAnswerEvents, finalAnswerTurn } from '@toolcircuit/core/provider';
import { buildOpenAIChatRequest, buildOpenAIChatStreamRequest } from './build-openai-chat-request.js';
import { mapOpenAIChatError } from './map-openai-chat-error.js';
import {
  createOpenAIChatClient,
  type OpenAIChatModelOptions,
  resolveOpenAIChatSettings,
} from './openai-chat-options.js';
import { prepareOpenAIChatTools } from './openai-chat-prepare-tools.js';
import { streamOpenAIChat } from './openai-chat-stream.js';
import { openAIFinalAnswer } from './openai-shared-final-answer.js';
import { validateOpenAIOptions } from './openai-shared-options.js';
import { sdkRequestOptions } from './openai-shared-request-options.js';
import { parsedAnswer } from './openai-shared-response-shape.js';
import { cacheByToolsArray } from './openai-shared-tool-set.js';
import { parseOpenAIChatResponse } from './parse-openai-chat-response.js';

/**
 * A {@link Model} over OpenAI Chat Completions (`POST /chat/completions`) through the official `openai` SDK.
 * With `baseURL` and a `provider` name it also drives OpenAI-compatible servers (vLLM, Ollama, gateways).
 * The client (and the API key check) is built here, so a missing key fails now, not at the first call.
 */
export function createOpenAIChatModel(options: OpenAIChatModelOptions): Model {
  validateOpenAIOptions(options);
  const settings = resolveOpenAIChatSettings(options);
  const client = createOpenAIChatClient(options);
  const prepareTools = cacheByToolsArray((tools) =>
    prepareOpenAIChatTools(tools, settings, settings.provider, settings.customTools),
  );
  const provider = settings.provider;

  return {
    provider,
    modelId: settings.model,

    async generate(request: ModelRequest): Promise<ModelTurn> {
      const tools = prepareTools(request.tools);
      const body = buildOpenAIChatRequest(request, tools, settings);
      try {
        const pending = client.chat.completions.create(body, sdkRequestOptions(request, client, body));
        const completion = await parsedAnswer(pending, provider, 'choices');
        return finalAnswerTurn(
          parseOpenAIChatResponse(completion, { ...tools.toolSet, provider }),
          openAIFinalAnswer(request),
        );
      } catch (error) {
        throw mapOpenAIChatError(error, provider);
      }
    },

    stream(request: ModelRequest): AsyncIterable<StreamEvent> {
      const tools = prepareTools(request.tools);
      const body = buildOpenAIChatStreamRequest(request, tools, settings);
      return finalAnswerEvents(
        streamOpenAIChat({ client, body, request, context: { ...tools.toolSet, provider } }),
        openAIFinalAnswer(request),
      );
    },
  };
}
