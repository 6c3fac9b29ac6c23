import type { JsonObject } from '@toolcircuit/core';

/**
 * The Gemini REST wire shapes this adapter translates to and from (generateContent, v1beta). Both SDK
 * bindings accept and return these; keeping our own copy means the translation code never depends on
 * either SDK's type names, and the legacy SDK's types (which lack `thoughtSignature`, `thought` and
 * `functionCall.id`) cannot narrow what we send.
 *
 * @see https://ai.google.dev/api/generate-content
 */

/** A function call as received: `id` is usually absent, `args` can be absent (a call without arguments). */
export interface GeminiFunctionCall {
  id?: string | undefined;
  name?: string | undefined;
  args?: unknown;
  /** Vertex AI `streamFunctionCallArguments` only: the call continues in the next parts. */
  willContinue?: boolean | undefined;
  /** Vertex AI only: pieces of the arguments, by JSON path. */
  partialArgs?: unknown;
}

export interface GeminiFunctionResponse {
  /** Only when the provider gave the call an id: a synthesised id is never sent back. */
  id?: string;
  name: string;
  /** `{ output }` for a result, `{ error }` for a failure, as the API documents. */
  response: JsonObject;
  /** Images and documents of the result (@google/genai; Gemini 3 models read them). */
  parts?: GeminiMediaPart[];
}

/** Bytes inline (base64) or a file by URI, with its media type; `displayName` is what `response` refers to. */
export interface GeminiMediaPart {
  inlineData?: { mimeType: string; data: string; displayName?: string };
  fileData?: { mimeType: string; fileUri: string; displayName?: string };
}

/** A part we send. */
export interface GeminiRequestPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name: string; args: JsonObject };
  functionResponse?: GeminiFunctionResponse;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType: string; fileUri: string };
  /** Code execution's parts, sent back as Gemini gave them. */
  executableCode?: JsonObject;
  codeExecutionResult?: JsonObject;
}

export interface GeminiRequestContent {
  /** `user`, `model`, or `function` (legacy SDK, for functionResponse parts). */
  role: string;
  parts: GeminiRequestPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** OpenAPI 3.0 subset. Mutually exclusive with `parametersJsonSchema`; omitted for a tool without parameters. */
  parameters?: JsonObject;
  parametersJsonSchema?: JsonObject;
}

export interface GeminiFunctionTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** A tool Gemini runs itself: `{ googleSearch: {} }`, `{ codeExecution: {} }`, `{ urlContext: {} }`… */
export type GeminiHostedTool = { functionDeclarations?: never } & Record<string, JsonObject>;

export type GeminiTool = GeminiFunctionTool | GeminiHostedTool;

export type GeminiFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE';

export interface GeminiToolConfig {
  functionCallingConfig: {
    mode: GeminiFunctionCallingMode;
    allowedFunctionNames?: string[];
  };
}

export interface GeminiGenerationConfig {
  temperature?: number;
  maxOutputTokens?: number;
  /** JSON mode, for a run's structured answer (see google-output-format.ts). */
  responseMimeType?: 'application/json';
  responseJsonSchema?: JsonObject;
}

/** One generateContent / streamGenerateContent request, before the SDK binding adapts it. */
export interface GeminiRequest {
  contents: GeminiRequestContent[];
  systemInstruction?: { parts: { text: string }[] };
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  generationConfig?: GeminiGenerationConfig;
  /** `request.providerOptions.google`, deep-merged into the request body by the binding. */
  extraBody?: JsonObject;
}

/** A part we receive. Every field is optional and loosely typed: the parser checks what it reads. */
export interface GeminiResponsePart {
  text?: string | undefined;
  thought?: boolean | undefined;
  thoughtSignature?: string | undefined;
  functionCall?: GeminiFunctionCall | undefined;
  executableCode?: object | undefined;
  codeExecutionResult?: object | undefined;
  /** Any other field: a part of a kind this adapter does not read (kept whole as a `provider` part). */
  [field: string]: unknown;
}

export interface GeminiCandidate {
  content?: { role?: string | undefined; parts?: GeminiResponsePart[] | undefined } | undefined;
  finishReason?: string | undefined;
  /** Search and retrieval grounding: chunks (pages, documents), supports (which text each backs), queries. */
  groundingMetadata?: unknown;
  /** The URLs URL context retrieved, with their status. */
  urlContextMetadata?: unknown;
  /** Recitation citations: spans of the answer quoted from a source. */
  citationMetadata?: unknown;
}

export interface GeminiUsageMetadata {
  promptTokenCount?: number | undefined;
  candidatesTokenCount?: number | undefined;
  thoughtsTokenCount?: number | undefined;
  cachedContentTokenCount?: number | undefined;
  totalTokenCount?: number | undefined;
}

/** A whole response, or one chunk of a stream (each SSE chunk is a complete GenerateContentResponse). */
export interface GeminiResponse {
  candidates?: GeminiCandidate[] | undefined;
  usageMetadata?: GeminiUsageMetadata | undefined;
  responseId?: string | undefined;
  modelVersion?: string | undefined;
  promptFeedback?: { blockReason?: string | undefined } | undefined;
}
