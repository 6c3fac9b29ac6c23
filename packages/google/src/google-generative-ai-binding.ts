import type {
  EnhancedGenerateContentResponse,
  GenerateContentRequest,
  GenerativeModel,
  SingleRequestOptions,
} from '@google/generative-ai';
import { deepMerge } from './deep-merge.js';
import type { GeminiRequest, GeminiResponse } from './google-api.js';
import type { GoogleBinding } from './google-binding.js';
import { mapGoogleErrorBody } from './map-google-error.js';

/**
 * `@google/generative-ai` 0.24 (archived upstream, still named by users). It posts the request object
 * as JSON almost untouched, so the body is built here in REST shape. It never retries, and it always
 * uses `globalThis.fetch`.
 */
export function createGenerativeAiBinding(model: GenerativeModel): GoogleBinding {
  return {
    sdk: 'generative-ai',
    functionResponseRole: 'function',
    // Its types predate parametersJsonSchema, but it posts the request as JSON unchanged, so the field
    // reaches the API (test/json-schema-per-tool.test.ts reads it on the wire).
    supportsJsonSchema: true,
    async generateContent(request, signal) {
      // The SDK only listens for a *future* abort: an already aborted signal would still send the request.
      signal?.throwIfAborted();
      const result = await model.generateContent(toSdkRequest(request), requestOptions(signal));
      return fromSdkResponse(result.response);
    },
    async *streamGenerateContent(request, signal) {
      signal?.throwIfAborted();
      const result = await model.generateContentStream(toSdkRequest(request), requestOptions(signal));
      // The SDK also aggregates the stream into `result.response` (dropping thoughtSignature, so we do not
      // use it); when the stream breaks that promise rejects too, and nobody else would ever handle it.
      result.response.catch(() => undefined);
      for await (const chunk of result.stream) {
        // This SDK hands an SSE error chunk over as if it were a response; the API sends one when a
        // stream fails after it started.
        if ('error' in chunk) throw mapGoogleErrorBody(chunk.error, undefined);
        yield fromSdkResponse(chunk);
      }
    },
  };
}

function requestOptions(signal: AbortSignal | undefined): SingleRequestOptions {
  return signal === undefined ? {} : { signal };
}

/**
 * Why the whole history is serialised again here on every step: `generateContent` / `generateContentStream`
 * (dist/index.mjs) `JSON.stringify` the whole request on every call (it transforms nothing else per content),
 * and `SingleRequestOptions` (timeout, apiVersion, baseUrl, customHeaders, apiClient, signal) has no body
 * and no fetch: the SDK always calls `globalThis.fetch` with the string it made.
 */
function toSdkRequest(request: GeminiRequest): GenerateContentRequest {
  const body: Record<string, unknown> = { contents: request.contents };
  if (request.systemInstruction !== undefined) body['systemInstruction'] = request.systemInstruction;
  if (request.tools !== undefined) body['tools'] = request.tools;
  if (request.toolConfig !== undefined) body['toolConfig'] = request.toolConfig;
  if (request.generationConfig !== undefined) body['generationConfig'] = request.generationConfig;
  // The SDK's types predate thoughtSignature, thought, functionCall.id and the `function`-role rules,
  // but it sends the object as JSON unchanged, which is what we rely on.
  return (request.extraBody === undefined
    ? body
    : deepMerge(body, request.extraBody)) as unknown as GenerateContentRequest;
}

function fromSdkResponse(response: EnhancedGenerateContentResponse): GeminiResponse {
  // The chunk is the parsed JSON plus helper methods; the REST fields the types omit (responseId,
  // modelVersion, thoughtSignature, functionCall.id) are there at run time.
  const wire = response as unknown as GeminiResponse;
  return {
    candidates: wire.candidates,
    usageMetadata: wire.usageMetadata,
    responseId: wire.responseId,
    modelVersion: wire.modelVersion,
    promptFeedback: wire.promptFeedback,
  };
}
