import type { Model, ModelRequest, ModelTurn, StreamEvent } from '@toolcircuit/core';
import { finalAnswerEvents, finalAnswerTurn } from '@toolcircuit/core/provider';
import { buildGoogleRequest } from './build-google-request.js';
import type { GeminiResponse } from './google-api.js';
import { GoogleConfigurationError } from './google-configuration-error.js';
import { googleFinalAnswer } from './google-final-answer.js';
import { GOOGLE_PROVIDER } from './google-metadata.js';
import { createGoogleBinding, type GoogleModelOptions } from './google-options.js';
import { defaultGoogleStructuredOutput } from './google-output-format.js';
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
  const structured: unknown = options.structuredOutput;
  if (structured !== undefined && structured !== 'native' && structured !== 'tool') {
    throw new GoogleConfigurationError(
      'invalid_option',
      'structuredOutput',
      `google: structuredOutput must be 'native' or 'tool', got ${JSON.stringify(structured)}.`,
    );
  }
  const structuredOutput = options.structuredOutput ?? defaultGoogleStructuredOutput(options.model);

  return {
    provider: GOOGLE_PROVIDER,
    modelId: options.model,
    async generate(request: ModelRequest): Promise<ModelTurn> {
      const built = buildGoogleRequest(request, binding, tools, structuredOutput);
      let response: GeminiResponse;
      try {
        response = await binding.generateContent(built.body, request.signal);
      } catch (error) {
        throw mapGoogleError(error, request.signal);
      }
      return finalAnswerTurn(parseGoogleResponse(response, built.parse), googleFinalAnswer(request, built.answerTool));
    },
    // A configuration error (a tool choice naming an undeclared tool) is thrown on the first `next()`,
    // as generate() rejects; everything the provider or the network does becomes an `error` event.
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent, void, undefined> {
      const built = buildGoogleRequest(request, binding, tools, structuredOutput);
      yield* finalAnswerEvents(
        streamGoogle(binding, built, request.signal),
        googleFinalAnswer(request, built.answerTool),
      );
    },
  };
}
