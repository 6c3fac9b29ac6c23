/** Prefix that tells the model a result is a failure: OpenAI tool messages have no error flag. */
export const TOOL_ERROR_PREFIX = 'Error: ';
