import {
  FunctionCallingConfigMode,
  type FunctionDeclaration,
  type GenerateContentConfig,
  type GenerateContentParameters,
  type GenerateContentResponse,
  type GoogleGenAI,
  type Schema,
  type Tool,
  type ToolConfig,
} from '@google/genai';
import type {
  GeminiFunctionCallingMode,
  GeminiRequest,
  GeminiResponse,
  GeminiTool,
  GeminiToolConfig,
} from './google-api.js';
import type { GoogleBinding } from './google-binding.js';

const MODES: Readonly<Record<GeminiFunctionCallingMode, FunctionCallingConfigMode>> = {
  AUTO: FunctionCallingConfigMode.AUTO,
  ANY: FunctionCallingConfigMode.ANY,
  NONE: FunctionCallingConfigMode.NONE,
};

/**
 * `@google/genai` (the maintained SDK, our default). Its `generateContent({ model, contents, config })`
 * flattens generationConfig, tools, toolConfig and systemInstruction into `config`; the SDK rebuilds
 * the REST body from it. Retries: the SDK retries only when `httpOptions.retryOptions` is set on the
 * client (it is not, by default), so one call here is one HTTP request.
 */
export function createGenaiBinding(client: GoogleGenAI, modelId: string): GoogleBinding {
  return {
    sdk: 'genai',
    functionResponseRole: 'user',
    supportsJsonSchema: true,
    async generateContent(request, signal) {
      return fromSdkResponse(await client.models.generateContent(toSdkParameters(modelId, request, signal)));
    },
    async *streamGenerateContent(request, signal) {
      const stream = await client.models.generateContentStream(toSdkParameters(modelId, request, signal));
      for await (const chunk of stream) yield fromSdkResponse(chunk);
    },
  };
}

/**
 * Why the whole history is transformed and serialised again here on every step, although our side caches
 * each converted content: `Models.generateContentInternal` / `generateContentStreamInternal` (dist/node/
 * index.mjs) always run `generateContentParametersToMldev` over the parameters (`tContents`, then
 * `contentToMldev` / `partToMldev`, which build new objects for every content and part; `tTool` runs
 * `processJsonSchema` over every declaration's `parameters`) and `JSON.stringify` the result. No public
 * option takes a serialised body or skips that: `httpOptions.extraBody` is merged INTO the SDK's body
 * (parsed and serialised again), `httpOptions.fetch` receives the finished string, and the body field
 * belongs to the SDK's unexported `ApiClient` / `HttpRequest`. Swapping the body inside a custom `fetch` would bypass the
 * SDK's request building (and the continuation token it writes into the body of a follow-up request), so
 * we do not. What is cut is on our side: the converted contents, their hashes and the name mapping are
 * made once per message.
 */
function toSdkParameters(
  model: string,
  request: GeminiRequest,
  signal: AbortSignal | undefined,
): GenerateContentParameters {
  const config: GenerateContentConfig = {};
  if (request.systemInstruction !== undefined) config.systemInstruction = request.systemInstruction;
  if (request.tools !== undefined) config.tools = request.tools.map(toSdkTool);
  if (request.toolConfig !== undefined) config.toolConfig = toSdkToolConfig(request.toolConfig);
  const generation = request.generationConfig;
  if (generation?.temperature !== undefined) config.temperature = generation.temperature;
  if (generation?.maxOutputTokens !== undefined) config.maxOutputTokens = generation.maxOutputTokens;
  // The SDK deep-merges extraBody into the REST body it built, which is exactly the options-bag contract.
  if (request.extraBody !== undefined) config.httpOptions = { extraBody: request.extraBody };
  if (signal !== undefined) config.abortSignal = signal;
  return { model, contents: request.contents, config };
}

function toSdkTool(tool: GeminiTool): Tool {
  // Hosted tools (googleSearch, codeExecution…) are already in the SDK's shape.
  if (tool.functionDeclarations === undefined) return { ...tool } as Tool;
  // Fresh declaration objects on every call: the SDK rewrites `parameters` in place (upper-cased types,
  // additionalProperties dropped), and the translated declarations are cached across turns.
  return {
    functionDeclarations: tool.functionDeclarations.map((declaration): FunctionDeclaration => {
      const { parameters, ...rest } = declaration;
      // Our `parameters` is the JSON form of the SDK's `Schema` (lower-case types, which the SDK upper-cases).
      return parameters === undefined ? rest : { ...rest, parameters: parameters as Schema };
    }),
  };
}

function toSdkToolConfig(toolConfig: GeminiToolConfig): ToolConfig {
  const { mode, allowedFunctionNames } = toolConfig.functionCallingConfig;
  return {
    functionCallingConfig:
      allowedFunctionNames === undefined ? { mode: MODES[mode] } : { mode: MODES[mode], allowedFunctionNames },
  };
}

function fromSdkResponse(response: GenerateContentResponse): GeminiResponse {
  return {
    candidates: response.candidates,
    usageMetadata: response.usageMetadata,
    responseId: response.responseId,
    modelVersion: response.modelVersion,
    promptFeedback: response.promptFeedback,
  };
}
