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
import { type ContentsText, createContentsText, type GenaiFetch } from './genai-contents-text.js';
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
export function createGenaiBinding(client: GoogleGenAI, modelId: string, clientFetch?: GenaiFetch): GoogleBinding {
  // Only over a client the adapter built itself is its fetch known, so only there can the body be completed.
  const text = clientFetch === undefined ? undefined : { contents: createContentsText(), send: clientFetch };
  return {
    sdk: 'genai',
    functionResponseRole: 'user',
    supportsJsonSchema: true,
    async generateContent(request, signal) {
      return fromSdkResponse(await client.models.generateContent(toSdkParameters(modelId, request, signal, text)));
    },
    async *streamGenerateContent(request, signal) {
      const stream = await client.models.generateContentStream(toSdkParameters(modelId, request, signal, text));
      for await (const chunk of stream) yield fromSdkResponse(chunk);
    },
  };
}

/**
 * `Models.generateContentInternal` / `generateContentStreamInternal` (dist/node/index.mjs) always run
 * `generateContentParametersToMldev` over the parameters (`tContents`, then `contentToMldev` /
 * `partToMldev`, which build new objects for every content and part) and `JSON.stringify` the result: given
 * the history, the SDK converts and serialises all of it on every step (≈ 4× the cost of serialising it
 * alone). No option takes a serialised body (`extraBody` is merged into the SDK's body, which is parsed and
 * serialised again). So, over a client the adapter built, the SDK is given a placeholder for the history and
 * the per-request `httpOptions.fetch` puts the history's reused text in its place (genai-contents-text.ts):
 * the SDK still builds everything else, continuation tokens included. Not when `extraBody` sets `contents`
 * itself (it must win, as it does in the SDK), nor for an empty history (the SDK's own error is kept).
 */
function toSdkParameters(
  model: string,
  request: GeminiRequest,
  signal: AbortSignal | undefined,
  text: { readonly contents: ContentsText; readonly send: GenaiFetch } | undefined,
): GenerateContentParameters {
  const config: GenerateContentConfig = {};
  if (request.systemInstruction !== undefined) config.systemInstruction = request.systemInstruction;
  if (request.tools !== undefined) config.tools = request.tools.map(toSdkTool);
  if (request.toolConfig !== undefined) config.toolConfig = toSdkToolConfig(request.toolConfig);
  const generation = request.generationConfig;
  if (generation?.temperature !== undefined) config.temperature = generation.temperature;
  if (generation?.maxOutputTokens !== undefined) config.maxOutputTokens = generation.maxOutputTokens;
  if (generation?.responseMimeType !== undefined) config.responseMimeType = generation.responseMimeType;
  if (generation?.responseJsonSchema !== undefined) config.responseJsonSchema = generation.responseJsonSchema;
  // The SDK deep-merges extraBody into the REST body it built, which is exactly the options-bag contract.
  if (request.extraBody !== undefined) config.httpOptions = { extraBody: request.extraBody };
  if (signal !== undefined) config.abortSignal = signal;
  const contents = request.contents;
  if (
    text === undefined ||
    contents.length === 0 ||
    (request.extraBody !== undefined && 'contents' in request.extraBody)
  ) {
    return { model, contents, config };
  }
  config.httpOptions = { ...config.httpOptions, fetch: text.contents.fetchWith(contents, text.send) };
  return { model, contents: text.contents.placeholder, config };
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
    // The SDK's parts carry every field the API sent; the parser reads what it knows and keeps the rest.
    candidates: response.candidates as GeminiResponse['candidates'],
    usageMetadata: response.usageMetadata,
    responseId: response.responseId,
    modelVersion: response.modelVersion,
    promptFeedback: response.promptFeedback,
  };
}
