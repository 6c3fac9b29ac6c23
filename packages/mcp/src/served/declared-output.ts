import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ServedToolExtras } from './served-tool-listing.js';

/**
 * A tool that declares an output schema promises structured content on success (clients reject a result
 * without it as a protocol error). A successful result that carries none becomes an `isError` result saying
 * so, which the client's model can read, rather than a failure of the whole request.
 */
export function withDeclaredOutput(
  result: CallToolResult,
  name: string,
  extras: Readonly<Record<string, ServedToolExtras>> | undefined,
): CallToolResult {
  if (extras?.[name]?.outputSchema === undefined || result.isError === true || result.structuredContent !== undefined) {
    return result;
  }
  return {
    content: [
      ...result.content,
      {
        type: 'text',
        text: `"${name}" declares an output schema but returned no JSON object; its result is not structured.`,
      },
    ],
    isError: true,
  };
}
