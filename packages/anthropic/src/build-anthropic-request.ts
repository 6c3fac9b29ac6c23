import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest } from '@toolcircuit/core';
import type { ToolNameMap } from '@toolcircuit/schema';
import { anthropicToolSettings, prepareAnthropicTools } from './anthropic-prepare-tools.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

/**
 * The request body without `stream`. `temperature` is not in SDK 1.14's types (API version 2026-10-21
 * deprecates it) but is still sent when the neutral request sets it: dropping it silently would hide the
 * caller's intent, and the API is the one to refuse it.
 */
export type AnthropicRequestBody = Omit<MessageCreateParamsBase, 'stream'> & { temperature?: number };

export interface AnthropicRequest {
  readonly body: AnthropicRequestBody;
  /** To map the provider's tool names in the answer back to the catalogue's. */
  readonly names: ToolNameMap;
}

export interface AnthropicRequestSettings {
  readonly model: string;
  readonly maxTokens: number;
}

/**
 * Neutral request → Messages API body. `providerOptions.anthropic` (e.g. `thinking`, `metadata`,
 * `stop_sequences`) is merged last, so it can also override what the adapter chose; `stream` is the
 * adapter's to decide and is ignored there.
 */
export function buildAnthropicRequest(request: ModelRequest, settings: AnthropicRequestSettings): AnthropicRequest {
  const prepared = prepareAnthropicTools(request.tools);
  const prompt = convertToAnthropicMessages(request.system, request.messages, prepared.names);
  const body: AnthropicRequestBody = {
    model: settings.model,
    max_tokens: request.maxOutputTokens ?? settings.maxTokens,
    messages: prompt.messages,
  };
  if (prompt.system !== undefined) body.system = prompt.system;
  Object.assign(body, anthropicToolSettings(prepared, request.toolChoice, request.parallelToolCalls));
  if (request.temperature !== undefined) body.temperature = request.temperature;
  const { stream: _stream, ...bag } = request.providerOptions?.['anthropic'] ?? {};
  Object.assign(body, bag);
  return { body, names: prepared.names };
}
