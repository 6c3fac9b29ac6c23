import type { FinalAnswerReading, ModelRequest, OutputFormat } from '@toolcircuit/core';
import { restoreProviderInput, translateOutputSchema } from '@toolcircuit/schema';

/** The target an answer schema is translated for: strict mode when the run asks for it. */
export function openAIOutputTarget(format: OutputFormat): 'openai-strict' | 'openai' {
  return format.strict ? 'openai-strict' : 'openai';
}

/**
 * How a structured answer is read back from an OpenAI turn (both APIs): strict mode sends an omitted
 * optional as `null` and may carry a free-form value as JSON text, so the translator restores the answer's
 * JSON to the run's schema before the loop validates it (core's `finalAnswerTurn`).
 */
export function openAIFinalAnswer(request: ModelRequest): FinalAnswerReading {
  const format = request.output;
  if (format === undefined) return {};
  const target = openAIOutputTarget(format);
  if (translateOutputSchema(format.schema, target, { name: format.name }).requiresRestore !== true) return {};
  return { restore: (value) => restoreProviderInput(format.schema, value, target) };
}
