import { createHash } from 'node:crypto';
import {
  type JsonContentPart,
  type JsonValue,
  type MediaContentPart,
  SUPPORTED_FILE_MEDIA_TYPES,
  SUPPORTED_IMAGE_MEDIA_TYPES,
  type TextPart,
  type ToolResultOutput,
} from '@toolcircuit/core';

/** One content block of an MCP tool result (the shapes toolcircuit maps; anything else is described). */
export type McpContentBlock = { readonly type: string; readonly [key: string]: unknown };

/** The part of an MCP `CallToolResult` that becomes the neutral result. */
export interface McpCallResult {
  readonly content?: readonly McpContentBlock[] | undefined;
  readonly structuredContent?: unknown;
  readonly isError?: boolean | undefined;
}

/**
 * Maps an MCP tool result to toolcircuit's neutral result:
 * - `text` blocks → text parts;
 * - `structuredContent` (already checked against the tool's `outputSchema` by the caller) → one JSON part,
 *   in place of the text blocks (servers repeat it there as JSON text; sending both doubles the tokens);
 * - `image` blocks of a supported image type → image parts, and embedded `resource` blobs of a supported file
 *   type (PDF, text) → file parts, both keeping the server's base64 text (never decoded and re-encoded);
 * - anything else (`audio`, `resource_link`, other media types, embedded text resources) → a JSON part that
 *   **describes** it (type, mimeType, byte size and SHA-256 of the bytes, uri, name; an embedded text
 *   resource keeps its text), so nothing is silently dropped.
 * The server's `isError` is the result's `isError`.
 */
export function mapMcpResult(result: McpCallResult, useStructured: boolean): ToolResultOutput {
  const parts: (TextPart | JsonContentPart | MediaContentPart)[] = [];
  const structured = useStructured ? result.structuredContent : undefined;
  if (structured !== undefined) parts.push({ type: 'json', value: structured as JsonValue });
  for (const block of result.content ?? []) {
    if (block.type === 'text') {
      if (structured === undefined && typeof block.text === 'string') parts.push({ type: 'text', text: block.text });
      continue;
    }
    parts.push(mediaPartOf(block) ?? { type: 'json', value: describeBlock(block) });
  }
  const isError = result.isError === true;
  if (parts.length === 0) return { isError, content: isError ? 'The tool failed and said nothing more.' : '' };
  const [only] = parts;
  if (parts.length === 1 && only?.type === 'text') return { isError, content: only.text };
  return { isError, content: parts };
}

/** The block as a neutral media part when toolcircuit can carry it to every provider; undefined otherwise. */
function mediaPartOf(block: McpContentBlock): MediaContentPart | undefined {
  if (block.type === 'image' && typeof block.data === 'string' && typeof block.mimeType === 'string') {
    if (SUPPORTED_IMAGE_MEDIA_TYPES.includes(block.mimeType))
      return { type: 'image', mediaType: block.mimeType, data: block.data };
    return undefined;
  }
  if (block.type !== 'resource') return undefined;
  const resource = (block.resource ?? {}) as Record<string, unknown>;
  const { blob, mimeType, uri } = resource;
  if (typeof blob !== 'string' || typeof mimeType !== 'string' || !SUPPORTED_FILE_MEDIA_TYPES.includes(mimeType))
    return undefined;
  const name = typeof uri === 'string' ? uri.slice(uri.lastIndexOf('/') + 1) || undefined : undefined;
  return { type: 'file', mediaType: mimeType, data: blob, ...(name === undefined ? {} : { name }) };
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
