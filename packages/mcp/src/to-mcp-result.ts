import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  isAudioMediaType,
  isTextMediaType,
  type MediaContentPart,
  mediaBase64,
  mediaText,
  type ToolResultPart,
} from '@toolcircuit/core';

/**
 * A neutral tool result as an MCP `CallToolResult`: text parts as text blocks, JSON parts as their JSON text,
 * images and sounds as MCP image and audio blocks, files as embedded resources (text files as text, others as
 * bytes; a file named by a URI under that URI) or resource links (URLs); a result that is one JSON object is
 * also given as `structuredContent`. `isError` carries over, so refusals (unknown tool, invalid input, missing
 * right, confirmation) reach the client's model as errors it can act on, never as protocol errors.
 */
export function toMcpResult(result: ToolResultPart, extraText?: string): CallToolResult {
  const content: CallToolResult['content'] = [];
  let structured: Record<string, unknown> | undefined;
  if (typeof result.content === 'string') content.push({ type: 'text', text: result.content });
  else {
    for (const part of result.content) {
      if (part.type === 'text') content.push({ type: 'text', text: part.text });
      else if (part.type === 'json') content.push({ type: 'text', text: JSON.stringify(part.value) });
      else content.push(mediaBlock(part));
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

/** An image or file part as the MCP block that carries it without re-encoding what the tool gave. */
function mediaBlock(part: MediaContentPart): CallToolResult['content'][number] {
  const base64 = mediaBase64(part);
  if (base64 === undefined) {
    // A URL: MCP carries it as a link the client may fetch, never fetched here.
    const name = part.type === 'file' && part.name !== undefined ? part.name : (part.url ?? 'attachment');
    return { type: 'resource_link', uri: part.url ?? '', name, mimeType: part.mediaType };
  }
  if (part.type === 'image') return { type: 'image', data: base64, mimeType: part.mediaType };
  if (isAudioMediaType(part.mediaType)) return { type: 'audio', data: base64, mimeType: part.mediaType };
  // A file named by a URI (`notes://42`) is that resource, embedded; any other name is an attachment's.
  const uri =
    part.name !== undefined && URI_SCHEME.test(part.name)
      ? part.name
      : `attachment:///${encodeURIComponent(part.name ?? 'file')}`;
  if (isTextMediaType(part.mediaType)) {
    return { type: 'resource', resource: { uri, mimeType: part.mediaType, text: mediaText(part) ?? '' } };
  }
  return { type: 'resource', resource: { uri, mimeType: part.mediaType, blob: base64 } };
}

const URI_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
