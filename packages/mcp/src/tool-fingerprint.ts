import { type JsonValue, jsonDigest } from '@toolcircuit/core';
import type { McpToolInfo } from './tool-policy.js';

/**
 * SHA-256 of everything in a tool's definition that the model or the policy reads: name, title, description,
 * input and output schemas, annotations. Any change to one of them (a "rug pull": a new description that
 * tells the model to do something else, a schema that accepts more, an annotation that drops
 * `destructiveHint`) changes the fingerprint; `_meta` and other fields do not take part.
 */
export function toolFingerprint(tool: McpToolInfo): string {
  const pinned: Record<string, JsonValue> = { name: tool.name };
  if (tool.title !== undefined) pinned.title = tool.title;
  if (tool.description !== undefined) pinned.description = tool.description;
  pinned.inputSchema = tool.inputSchema as unknown as JsonValue;
  if (tool.outputSchema !== undefined) pinned.outputSchema = tool.outputSchema as unknown as JsonValue;
  if (tool.annotations !== undefined) pinned.annotations = tool.annotations as unknown as JsonValue;
  return jsonDigest(pinned);
}
