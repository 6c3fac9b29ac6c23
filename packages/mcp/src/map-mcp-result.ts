import { createHash } from 'node:crypto';
import type { JsonContentPart, JsonValue, TextPart, ToolResultOutput } from '@toolcircuit/core';

/** One content block of an MCP tool result (the shapes toolcircuit maps; anything else is described). */
export type McpContentBlock = { readonly type: string; readonly [key: string]: unknown };

/** The part of an MCP `CallToolResult` that becomes the neutral result. */
export interface McpCallResult {
  readonly content?: readonly McpContentBlock[] | undefined;
  readonly structuredContent?: Record<string, unknown> | undefined;
  readonly isError?: boolean | undefined;
}

/**
 * Maps an MCP tool result to toolcircuit's neutral result, which today carries text and JSON:
 * - `text` blocks → text parts;
 * - `structuredContent` (already checked against the tool's `outputSchema` by the caller) → one JSON part,
 *   in place of the text blocks (servers repeat it there as JSON text; sending both doubles the tokens);
 * - `image`, `audio`, `resource_link` and embedded `resource` blocks → a JSON part that **describes** them
 *   (type, mimeType, byte size and SHA-256 of the bytes, uri, name), so nothing is silently dropped. An
 *   embedded text resource keeps its text. Media parts in tool results will replace these descriptions.
 * The server's `isError` is the result's `isError`.
 */
export function mapMcpResult(result: McpCallResult, useStructured: boolean): ToolResultOutput {
  const parts: (TextPart | JsonContentPart)[] = [];
  const structured = useStructured ? result.structuredContent : undefined;
  if (structured !== undefined) parts.push({ type: 'json', value: structured as JsonValue });
  for (const block of result.content ?? []) {
    if (block.type === 'text') {
      if (structured === undefined && typeof block.text === 'string') parts.push({ type: 'text', text: block.text });
      continue;
    }
    parts.push({ type: 'json', value: describeBlock(block) });
  }
  const isError = result.isError === true;
  if (parts.length === 0) return { isError, content: isError ? 'The tool failed and said nothing more.' : '' };
  const [only] = parts;
  if (parts.length === 1 && only?.type === 'text') return { isError, content: only.text };
  return { isError, content: parts };
}

function describeBlock(block: McpContentBlock): JsonValue {
  switch (block.type) {
    case 'image':
    case 'audio':
      return { type: block.type, ...stringFields(block, ['mimeType']), ...bytesOf(block.data) };
    case 'resource_link':
      return { type: 'resource_link', ...stringFields(block, ['uri', 'name', 'title', 'mimeType', 'description']) };
    case 'resource': {
      const resource = (block.resource ?? {}) as Record<string, unknown>;
      const described: Record<string, JsonValue> = { type: 'resource', ...stringFields(resource, ['uri', 'mimeType']) };
      if (typeof resource.text === 'string') {
        described.text = resource.text;
        described.bytes = Buffer.byteLength(resource.text);
        described.sha256 = createHash('sha256').update(resource.text).digest('hex');
      } else Object.assign(described, bytesOf(resource.blob));
      return described;
    }
    default:
      // A block type this version does not know: say so rather than drop it.
      return { type: typeof block.type === 'string' ? block.type : 'unknown', unsupported: true };
  }
}

function stringFields(source: Record<string, unknown>, names: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const name of names) {
    const value = source[name];
    if (typeof value === 'string') fields[name] = value;
  }
  return fields;
}

/** Size and digest of base64 data: enough to identify it, without putting megabytes in front of the model. */
function bytesOf(data: unknown): Record<string, JsonValue> {
  if (typeof data !== 'string') return {};
  const bytes = Buffer.from(data, 'base64');
  return { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}
