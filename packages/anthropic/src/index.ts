/**
 * @toolcircuit/anthropic — the Anthropic Messages API adapter, over the official `@anthropic-ai/sdk`.
 *
 *     const model = createAnthropicModel({ model: 'claude-sonnet-5-5' }); // key from ANTHROPIC_API_KEY
 *
 * Provider data (thinking signatures, redacted thinking, response ids) rides in `providerMetadata.anthropic`;
 * request fields the neutral model lacks (`thinking`, `metadata`…) go in `providerOptions.anthropic`.
 */

export {
  AnthropicConfigurationError,
  type AnthropicConfigurationErrorCode,
} from './anthropic-configuration-error.js';
export { ANTHROPIC_PROVIDER, createAnthropicModel } from './anthropic-model.js';
export {
  ANTHROPIC_API_KEY_ENV,
  type AnthropicModelOptions,
  createAnthropicClient,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
} from './anthropic-options.js';
export { type AnthropicStructuredOutput, defaultAnthropicStructuredOutput } from './anthropic-output-format.js';
export { type AnthropicTools, anthropicToolSettings, prepareAnthropicTools } from './anthropic-prepare-tools.js';
export { type AnthropicCreateParams, anthropicRequestBodyText } from './anthropic-request-body.js';
export { streamAnthropic } from './anthropic-stream.js';
export { AnthropicStreamAssembler, INTERRUPTED_INPUT_ERROR } from './anthropic-stream-assembler.js';
export type { AnthropicToolSearch } from './anthropic-tool-search.js';
export { type AnthropicRequestBody, buildAnthropicRequest } from './build-anthropic-request.js';
export { type AnthropicPrompt, convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
export {
  ANTHROPIC_TOOL_RESULT_COVERAGE,
  type AnthropicToolResult,
  convertToAnthropicToolResult,
} from './convert-to-anthropic-tool-result.js';
export { mapAnthropicError } from './map-anthropic-error.js';
export { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
export { CUT_OFF_INPUT_ERROR, parseAnthropicResponse } from './parse-anthropic-response.js';
export { createVoyageEmbedder, VOYAGE_API_KEY_ENV, type VoyageEmbedderOptions } from './voyage-embedder.js';
