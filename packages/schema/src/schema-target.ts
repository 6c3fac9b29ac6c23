/**
 * Which provider-side dialect a schema is translated into.
 * - `anthropic`: Messages API `input_schema` (root object; only keywords of Anthropic's strict subset).
 * - `openai`: Chat/Responses `parameters` without `strict` (pass-through, fixing only what OpenAI rejects).
 * - `openai-strict`: `parameters` with `strict: true` (closed objects, every property required, optional ⇒ nullable).
 * - `gemini`: `functionDeclarations[].parameters`, the OpenAPI 3.0 subset.
 * - `gemini-json-schema`: `functionDeclarations[].parametersJsonSchema`, for models that accept real JSON Schema.
 */
export type SchemaTarget = 'anthropic' | 'openai' | 'openai-strict' | 'gemini' | 'gemini-json-schema';

/** Every target, in a stable order (reports and tests iterate over it). */
export const SCHEMA_TARGETS: readonly SchemaTarget[] = Object.freeze([
  'anthropic',
  'openai',
  'openai-strict',
  'gemini',
  'gemini-json-schema',
]);
