import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResultPart } from '@toolcircuit/core';

/**
 * A neutral tool result as an MCP `CallToolResult`: text parts as text blocks, JSON parts as their JSON
 * text; a result that is one JSON object is also given as `structuredContent`. `isError` carries over, so
 * refusals (unknown tool, invalid input, missing right, confirmation) reach the client's model as errors
 * it can act on, never as protocol errors.
 */
export function toMcpResult(result: ToolResultPart, extraText?: string): CallToolResult {
  const content: CallToolResult['content'] = [];
  let structured: Record<string, unknown> | undefined;
  if (typeof result.content === 'string') content.push({ type: 'text', text: result.content });
  else {
    for (const part of result.content) {
      if (part.type === 'text') content.push({ type: 'text', text: part.text });
      else content.push({ type: 'text', text: JSON.stringify(part.value) });
    }
    const [only] = result.content;
    if (result.content.length === 1 && only?.type === 'json' && isObject(only.value)) structured = only.value;
  }
  if (extraText !== undefined) content.push({ type: 'text', text: extraText });
  return {
    content,
    ...(structured === undefined || result.isError ? {} : { structuredContent: structured }),
    ...(result.isError ? { isError: true } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
