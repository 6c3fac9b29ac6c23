import type { FinalAnswerReading, ModelRequest } from '@toolcircuit/core';
import { restoreProviderInput, translateOutputSchema } from '@toolcircuit/schema';

/**
 * How a structured answer is read back from a Messages API turn: the answer tool's call made the turn's
 * text again, or a native answer's JSON restored to the run's schema where the `anthropic` translation
 * reshaped values (core's `finalAnswerTurn` does either).
 */
export function anthropicFinalAnswer(request: ModelRequest, answerTool: string | undefined): FinalAnswerReading {
  const format = request.output;
  if (format === undefined || answerTool !== undefined) return { answerTool };
  if (translateOutputSchema(format.schema, 'anthropic', { name: format.name }).requiresRestore !== true) return {};
  return { restore: (value) => restoreProviderInput(format.schema, value, 'anthropic') };
}
