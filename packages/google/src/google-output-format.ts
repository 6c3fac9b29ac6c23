import type { JsonObject, ModelRequest } from '@toolcircuit/core';
import { answerToolRequest } from '@toolcircuit/core/provider';
import { translateOutputSchema } from '@toolcircuit/schema';

/**
 * How this adapter asks for a run's structured answer when the request has tools: `native`, JSON mode
 * (`responseMimeType: 'application/json'` + `responseJsonSchema`) next to them, or `tool`, an answer tool
 * the model must call to answer (see `answerToolRequest` in core). A request without tools always uses JSON
 * mode, which every current Gemini model has.
 */
export type GoogleStructuredOutput = 'native' | 'tool';

/**
 * Gemini 3 and later combine JSON mode with function calling and built-in tools; earlier models refuse the
 * request ("Function calling with a response mime type: 'application/json' is unsupported", HTTP 400), so
 * for them, and for model ids this cannot place, a request with tools gets the answer tool. The
 * `structuredOutput` option overrides this guess.
 *
 * @see https://ai.google.dev/gemini-api/docs/structured-output
 */
export function defaultGoogleStructuredOutput(model: string): GoogleStructuredOutput {
  const match = /^(?:models\/)?gemini-(\d+)/.exec(model);
  return match !== null && Number(match[1]) >= 3 ? 'native' : 'tool';
}

/** What a request with `output` becomes on the Gemini API. */
export interface GoogleOutput {
  /** The request to build: the answer tool added when it carries the answer. */
  readonly request: ModelRequest;
  /** `generationConfig` fields of JSON mode, when it carries the answer. */
  readonly jsonMode?: { readonly responseMimeType: 'application/json'; readonly responseJsonSchema: JsonObject };
  /** The answer tool's name, when it carries the answer: its call is the answer, never run. */
  readonly answerTool?: string;
}

/** JSON mode when the request has no tools or the model combines it with them; otherwise the answer tool. */
export function googleOutput(request: ModelRequest, mode: GoogleStructuredOutput): GoogleOutput {
  const output = request.output;
  if (output === undefined) return { request };
  const hasTools = request.tools.length > 0 || (request.hostedTools?.length ?? 0) > 0;
  if (hasTools && mode === 'tool') return { request: answerToolRequest(request), answerTool: output.name };
  const translated = translateOutputSchema(output.schema, 'gemini-json-schema', { name: output.name });
  return { request, jsonMode: { responseMimeType: 'application/json', responseJsonSchema: translated.schema } };
}
