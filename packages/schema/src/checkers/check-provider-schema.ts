import type { JsonObject } from '@toolcircuit/core';
import type { SchemaTarget } from '../schema-target.js';
import { checkAnthropic } from './check-anthropic.js';
import { checkGeminiJsonSchema } from './check-gemini-json-schema.js';
import { checkGeminiParameters } from './check-gemini-parameters.js';
import { checkOpenAI } from './check-openai.js';
import { checkOpenAIStrict } from './check-openai-strict.js';
import type { ProviderViolation } from './provider-violation.js';

export interface CheckOptions {
  /** Gemini: the adapter omits `parameters` (a tool without parameters), so there is nothing to check. */
  readonly parametersOmitted?: boolean;
}

/**
 * Checks a provider-side schema against that provider's documented subset (wire-formats.md and the
 * sources each checker cites). Written independently of the translator; an empty list means the provider
 * should accept the declaration.
 */
export function checkProviderSchema(
  schema: JsonObject,
  target: SchemaTarget,
  options: CheckOptions = {},
): ProviderViolation[] {
  switch (target) {
    case 'anthropic':
      return checkAnthropic(schema);
    case 'openai':
      return checkOpenAI(schema);
    case 'openai-strict':
      return checkOpenAIStrict(schema);
    case 'gemini':
      return checkGeminiParameters(schema, options);
    case 'gemini-json-schema':
      return checkGeminiJsonSchema(schema);
  }
}
