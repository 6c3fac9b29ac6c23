import { type ToolResultPart, toolResultText } from '@toolcircuit/core';

/** Prefix that tells the model a result is a failure: OpenAI tool messages have no error flag. */
export const TOOL_ERROR_PREFIX = 'Error: ';

/** The text an OpenAI tool message / function_call_output carries for one neutral result. */
export function toolResultOutput(part: ToolResultPart): string {
  const text = toolResultText(part.content);
  return part.isError ? `${TOOL_ERROR_PREFIX}${text}` : text;
}
