/**
 * @toolcircuit/google — the Gemini adapter: neutral requests and turns ⇄ the Gemini API, through the
 * official SDK of your choice (`@google/genai` by default, `@google/generative-ai` on request).
 */

/** The translation steps, exported for diagnostics and for tests that pin the wire format. */
export { convertToGoogleMessages } from './convert-to-google-messages.js';
export {
  convertToGoogleToolResult,
  GOOGLE_GENAI_TOOL_RESULT_COVERAGE,
  GOOGLE_GENERATIVE_AI_TOOL_RESULT_COVERAGE,
  type GoogleToolResult,
  type GoogleToolResultOptions,
} from './convert-to-google-tool-result.js';
export type {
  GeminiFunctionDeclaration,
  GeminiRequest,
  GeminiRequestContent,
  GeminiRequestPart,
  GeminiResponse,
  GeminiTool,
  GeminiToolConfig,
} from './google-api.js';
export type { GoogleSdk } from './google-binding.js';
export { GoogleConfigurationError, type GoogleConfigurationErrorCode } from './google-configuration-error.js';
export { createGeminiEmbedder, type GeminiEmbedderOptions } from './google-embedder.js';
export { GOOGLE_PROVIDER, type GooglePartMetadata } from './google-metadata.js';
/** Build a Gemini `Model`. */
export { createGoogleModel } from './google-model.js';
export {
  GOOGLE_API_KEY_ENV,
  type GoogleGenaiModelOptions,
  type GoogleGenerativeAiModelOptions,
  type GoogleModelOptions,
} from './google-options.js';
export { defaultGoogleStructuredOutput, type GoogleStructuredOutput } from './google-output-format.js';
export type { GoogleSchemaTarget } from './google-prepare-tools.js';
export { prepareGoogleDeclarations } from './google-prepare-tools.js';
export { mapGoogleError } from './map-google-error.js';
export { mapGoogleStopReason } from './map-google-stop-reason.js';
export { parseGoogleResponse } from './parse-google-response.js';
