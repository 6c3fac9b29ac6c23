/**
 * OpenAI adapters for toolcircuit, over the official `openai` SDK:
 * - {@link createOpenAIChatModel}: Chat Completions, also for OpenAI-compatible servers (`baseURL` + `provider`);
 * - {@link createOpenAIResponsesModel}: the Responses API (stateless, reasoning items carried along).
 *
 * Both read their options bag from `request.providerOptions.openai` (or the `provider` name given) and keep
 * their provider data under the same key in `providerMetadata`.
 */

export {
  convertToOpenAIChatToolResult,
  convertToOpenAIResponsesToolResult,
  OPENAI_CHAT_TOOL_RESULT_COVERAGE,
  OPENAI_RESPONSES_TOOL_RESULT_COVERAGE,
  type OpenAIChatToolResult,
  type OpenAIResponsesToolResult,
} from './convert-to-openai-tool-result.js';
export { createOpenAIChatModel } from './openai-chat-model.js';
export type { OpenAIChatModelOptions } from './openai-chat-options.js';
export {
  OpenAIConfigurationError,
  type OpenAIConfigurationErrorCode,
} from './openai-configuration-error.js';
export { createOpenAIEmbedder, type OpenAIEmbedderOptions } from './openai-embedder.js';
export { createOpenAIResponsesModel } from './openai-responses-model.js';
export type { OpenAIResponsesModelOptions } from './openai-responses-options.js';
export type { OpenAIResponsesToolSearch } from './openai-responses-tool-search.js';
export { OPENAI_API_KEY_ENV, type OpenAISharedModelOptions } from './openai-shared-options.js';
export { CUT_OFF_ERROR } from './openai-shared-tool-calls.js';
export { TOOL_ERROR_PREFIX } from './openai-shared-tool-result-output.js';
