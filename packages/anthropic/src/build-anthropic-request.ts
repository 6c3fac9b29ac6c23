import type { BetaContextManagementConfig } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import type { Message, ModelRequest } from '@toolcircuit/core';
import { anthropicContextManagement } from './anthropic-context-editing.js';
import {
  type AnthropicStructuredOutput,
  anthropicOutput,
  defaultAnthropicStructuredOutput,
} from './anthropic-output-format.js';
import { anthropicToolSettings, prepareAnthropicTools } from './anthropic-prepare-tools.js';
import type { AnthropicToolNames } from './anthropic-tool-names.js';
import { type AnthropicToolSearch, nativeToolSearchTools } from './anthropic-tool-search.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

/**
 * The request body without `stream`. `temperature` is not in SDK 1.14's types (API version 2026-10-21
 * deprecates it) but is still sent when the neutral request sets it: dropping it silently would hide the
 * caller's intent, and the API is the one to refuse it. `context_management` is typed by the SDK's beta
 * Messages API, whose beta header goes with it (see `anthropic-context-editing.ts`).
 */
export type AnthropicRequestBody = Omit<MessageCreateParamsBase, 'stream'> & {
  temperature?: number;
  context_management?: BetaContextManagementConfig | null;
};

export interface AnthropicRequest {
  readonly body: AnthropicRequestBody;
  /** To map the provider's tool names in the answer back to the catalogue's. */
  readonly names: AnthropicToolNames;
  /** The answer tool's name, when a run's structured answer travels as one (see `anthropicOutput`). */
  readonly answerTool?: string;
}

export interface AnthropicRequestSettings {
  readonly model: string;
  readonly maxTokens: number;
  readonly toolSearch?: AnthropicToolSearch;
  /** How a run's structured answer is asked for. Default: `defaultAnthropicStructuredOutput` of the model. */
  readonly structuredOutput?: AnthropicStructuredOutput;
}

/**
 * Neutral request → Messages API body. `providerOptions.anthropic` (e.g. `thinking`, `metadata`,
 * `stop_sequences`) is merged last, so it can also override what the adapter chose; `stream` is the
 * adapter's to decide and is ignored there. The latest assistant message's container id (code execution)
 * is sent back as `container`; a context policy's `contextEditing` becomes `context_management`.
 */
export function buildAnthropicRequest(neutral: ModelRequest, settings: AnthropicRequestSettings): AnthropicRequest {
  // A run's structured answer: `output_config.format`, or an answer tool added to the request.
  const output = anthropicOutput(
    neutral,
    settings.structuredOutput ?? defaultAnthropicStructuredOutput(settings.model),
  );
  const { request } = output;
  const prepared =
    nativeToolSearchTools(request, settings.toolSearch ?? 'neutral') ?? prepareAnthropicTools(request.tools);
  const prompt = convertToAnthropicMessages(request.system, request.messages, prepared.names);
  const body: AnthropicRequestBody = {
    model: settings.model,
    max_tokens: request.maxOutputTokens ?? settings.maxTokens,
    messages: prompt.messages,
  };
  if (prompt.system !== undefined) body.system = prompt.system;
  Object.assign(
    body,
    anthropicToolSettings(prepared, request.toolChoice, request.parallelToolCalls, {
      hostedTools: request.hostedTools,
      cacheTools: request.cacheTools,
    }),
  );
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.contextEditing !== undefined)
    body.context_management = anthropicContextManagement(request.contextEditing, prepared.names);
  const container = lastContainer(request.messages);
  if (container !== undefined) body.container = container;
  const { stream: _stream, ...bag } = request.providerOptions?.['anthropic'] ?? {};
  Object.assign(body, bag);
  if (output.format !== undefined) body.output_config = { ...body.output_config, format: output.format };
  return output.answerTool === undefined
    ? { body, names: prepared.names }
    : { body, names: prepared.names, answerTool: output.answerTool };
}

// Code execution state lives in a container; the conversation must keep naming the one it was given.
function lastContainer(messages: readonly Message[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'assistant') continue;
    const container = message.providerMetadata?.['anthropic']?.['container'];
    if (typeof container === 'string') return container;
  }
  return undefined;
}
