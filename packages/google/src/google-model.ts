import type { Model, ModelRequest, ModelTurn, StreamEvent } from '@toolcircuit/core';
import { buildGoogleRequest } from './build-google-request.js';
import type { GeminiResponse } from './google-api.js';
import { GoogleConfigurationError } from './google-configuration-error.js';
import { GOOGLE_PROVIDER } from './google-metadata.js';
import { createGoogleBinding, type GoogleModelOptions } from './google-options.js';
import { createGoogleToolPreparer } from './google-prepare-tools.js';
import { streamGoogle } from './google-stream.js';
import { mapGoogleError } from './map-google-error.js';
import { parseGoogleResponse } from './parse-google-response.js';

/**
 * A Gemini model for the circuit, over `@google/genai` (default) or `@google/generative-ai`
 * (`sdk: 'generative-ai'`). Configuration problems (no key, a schema target the SDK cannot send) are
 * thrown here, before any request.
 *
 * @example
 * const model = createGoogleModel({ model: 'gemini-2.5-flash' }); // key from GEMINI_API_KEY
 */
export function createGoogleModel(options: GoogleModelOptions): Model {
  const binding = createGoogleBinding(options);
  const target = options.schemaTarget ?? 'gemini';
  if (target === 'gemini-json-schema' && !binding.supportsJsonSchema) {
    throw new GoogleConfigurationError(
      'unsupported_schema_target',
      'schemaTarget',
      `google: schemaTarget 'gemini-json-schema' (parametersJsonSchema) needs sdk 'genai'; @google/${binding.sdk} cannot send it. Use schemaTarget 'gemini' or sdk 'genai'.`,
    );
  }
  const tools = createGoogleToolPreparer(target, options.keepUndeclaredKeys ?? false);

  return {
    provider: GOOGLE_PROVIDER,
    modelId: options.model,
    async generate(request: ModelRequest): Promise<ModelTurn> {
      const built = buildGoogleRequest(request, binding, tools);
      let response: GeminiResponse;
      try {
        response = await binding.generateContent(built.body, request.signal);
      } catch (error) {
        throw mapGoogleError(error, request.signal);
      }
      return parseGoogleResponse(response, built.parse);
    },
    // A configuration error (a tool choice naming an undeclared tool) is thrown on the first `next()`,
    // as generate() rejects; everything the provider or the network does becomes an `error` event.
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent, void, undefined> {
      yield* streamGoogle(binding, buildGoogleRequest(request, binding, tools), request.signal);
    },
  };
}
