import type { JsonObject, UntrustedContent } from '@toolcircuit/core';
import { untrustedContentOf } from '@toolcircuit/core/provider';

/**
 * The turn's server-tool results that put outside content into the model's context, for core's provenance
 * (`ModelTurn.untrustedContent`): every `*_tool_result` block (web search, web fetch, code execution and
 * its bash and text-editor variants, MCP connector results, and kinds added later), except the tool
 * search's, which lists the application's own tools. Each is marked where it stood, so the calls the model
 * made after it in the same response are judged with it. `undefined` when there is none.
 */
export function anthropicUntrustedContent(
  serverBlocks: readonly { readonly before: number; readonly block: JsonObject }[],
): UntrustedContent[] | undefined {
  let untrusted: UntrustedContent[] | undefined;
  for (const { before, block } of serverBlocks) {
    const type = block['type'];
    if (typeof type !== 'string' || !type.endsWith('_tool_result') || type === 'tool_search_tool_result') continue;
    const id = block['tool_use_id'] ?? block['id'];
    untrusted ??= [];
    untrusted.push(
      untrustedContentOf({
        at: before,
        kind: type,
        id: typeof id === 'string' ? id : `${type}-${untrusted.length + 1}`,
        value: block,
        skipKeys: OPAQUE_KEYS,
      }),
    );
  }
  return untrusted;
}

/** Tags and opaque fields nobody reads: search results' encrypted page content, ids. */
const OPAQUE_KEYS: readonly string[] = ['type', 'tool_use_id', 'encrypted_content', 'encrypted_index', 'file_id'];
