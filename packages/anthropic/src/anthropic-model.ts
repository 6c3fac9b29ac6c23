import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { Model, ModelRequest, ModelTurn, StreamEvent } from '@toolcircuit/core';
import { finalAnswerEvents, finalAnswerTurn, invalidResponseError } from '@toolcircuit/core/provider';
import { supportsContextEditing } from './anthropic-context-editing.js';
import { anthropicFinalAnswer } from './anthropic-final-answer.js';
import {
  type AnthropicModelOptions,
  createAnthropicClient,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
  validateAnthropicOptions,
} from './anthropic-options.js';
import { anthropicCallOptions } from './anthropic-request-options.js';
import { streamAnthropic } from './anthropic-stream.js';
import { buildAnthropicRequest } from './build-anthropic-request.js';
import { mapAnthropicError } from './map-anthropic-error.js';
import { parseAnthropicResponse } from './parse-anthropic-response.js';

/** Key of this adapter's entries in `providerMetadata` and `providerOptions`. */
export const ANTHROPIC_PROVIDER = 'anthropic';

/**
 * A toolcircuit {@link Model} over the official `@anthropic-ai/sdk` Messages API. Building it checks the
 * options and the API key (throwing `AnthropicConfigurationError`); `generate` throws `ProviderError`,
 * `stream` yields it as its final `error` event.
 */
export function createAnthropicModel(options: AnthropicModelOptions): Model {
  validateAnthropicOptions(options);
  const client = createAnthropicClient(options);
  const settings = {
    model: options.model,
    maxTokens: options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
    ...(options.toolSearch === undefined ? {} : { toolSearch: options.toolSearch }),
    ...(options.structuredOutput === undefined ? {} : { structuredOutput: options.structuredOutput }),
  };

  async function generate(request: ModelRequest): Promise<ModelTurn> {
    const { body, names, answerTool } = buildAnthropicRequest(request, settings);
    const params: MessageCreateParamsNonStreaming = { ...body, stream: false };
    let message: Message;
    let contentType: string | null;
    try {
      const answer = await client.messages
        .create(params, anthropicCallOptions(client, params, request.signal))
        .withResponse();
      message = answer.data;
      contentType = answer.response.headers.get('content-type');
    } catch (error) {
      throw mapAnthropicError(error);
    }
    // The SDK hands a body that is not JSON over as a string (an HTML page from a proxy).
    if (!isMessage(message)) throw invalidResponseError(ANTHROPIC_PROVIDER, { contentType, body: message });
    return finalAnswerTurn(parseAnthropicResponse(message, names), anthropicFinalAnswer(request, answerTool));
  }

  // The body is built before the first event so a configuration error throws at the call, not mid-stream.
  function stream(request: ModelRequest): AsyncIterable<StreamEvent> {
    const built = buildAnthropicRequest(request, settings);
    return finalAnswerEvents(
      streamAnthropic(client, built, request.signal),
      anthropicFinalAnswer(request, built.answerTool),
    );
  }

  // Context editing where the model has it: a context policy with `native` then leaves the clearing to the API.
  const clearsToolResults = options.contextEditing ?? supportsContextEditing(options.model);
  return { provider: ANTHROPIC_PROVIDER, modelId: options.model, clearsToolResults, generate, stream };
}

function isMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);
}
