import type { FinalAnswerReading, ModelRequest } from '@toolcircuit/core';
import { restoreProviderInput, translateOutputSchema } from '@toolcircuit/schema';

/**
 * How a structured answer is read back from a Gemini turn: the answer tool's call (its arguments already
 * restored, as every call's are) made the turn's text again, or a JSON-mode answer restored to the run's
 * schema where the `gemini-json-schema` translation reshaped values (core's `finalAnswerTurn` does either).
 */
export function googleFinalAnswer(request: ModelRequest, answerTool: string | undefined): FinalAnswerReading {
  const format = request.output;
  if (format === undefined || answerTool !== undefined) return { answerTool };
  const translated = translateOutputSchema(format.schema, 'gemini-json-schema', { name: format.name });
  if (translated.requiresRestore !== true) return {};
  return { restore: (value) => restoreProviderInput(format.schema, value, 'gemini-json-schema') };
}
