import type { Tool, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import type { DeferredTools, JsonObject, ModelRequest, ToolDeclaration } from '@toolcircuit/core';
import { sealForReuse } from '@toolcircuit/core/provider';
import type { ToolNameMap } from '@toolcircuit/schema';
import { type AnthropicTools, neutralToolName, prepareAnthropicTools } from './anthropic-prepare-tools.js';

/**
 * How deferred tools reach Claude: `neutral` (default) sends core's search tool and the loaded tools like any
 * others; `bm25` and `regex` use Anthropic's own tool search tool instead, with every deferred tool sent
 * with `defer_loading: true` (the API keeps them out of the context until its search references them).
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/tool-search-tool
 */
export type AnthropicToolSearch = 'neutral' | 'bm25' | 'regex';

const NATIVE_SEARCH_TOOLS = {
  bm25: { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
  regex: { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
} as const;

// Keyed by the request's DeferredTools, which the loop keeps (same object) until a search loads something.
const cache = new WeakMap<DeferredTools, Map<AnthropicToolSearch, AnthropicTools>>();

/**
 * The request's tools for Anthropic's native tool search: the shown tools without core's search tool, the
 * deferred ones marked `defer_loading`, and the native search tool. `undefined` in neutral mode or when the
 * catalogue defers nothing.
 */
export function nativeToolSearchTools(request: ModelRequest, mode: AnthropicToolSearch): AnthropicTools | undefined {
  const deferred = request.deferredTools;
  if (mode === 'neutral' || deferred === undefined) return undefined;
  const cached = cache.get(deferred)?.get(mode);
  if (cached !== undefined) return cached;
  const shown = request.tools.filter((tool) => tool.name !== deferred.searchTool);
  const all: ToolDeclaration[] = [...shown, ...deferred.tools];
  // Translated together so one name map covers the tools the native search may reference.
  const prepared = prepareAnthropicTools(all);
  const tools: ToolUnion[] = prepared.tools.map((tool, index) =>
    index < shown.length ? tool : sealForReuse({ ...(tool as Tool), defer_loading: true }),
  );
  tools.push(sealForReuse({ ...NATIVE_SEARCH_TOOLS[mode] }));
  const native: AnthropicTools = { ...prepared, tools: sealForReuse(tools) as readonly Tool[] };
  const byMode = cache.get(deferred) ?? new Map<AnthropicToolSearch, AnthropicTools>();
  byMode.set(mode, native);
  cache.set(deferred, byMode);
  return native;
}

/** The tools a turn's `tool_search_tool_result` blocks referenced, by their catalogue names. */
export function toolsLoadedBySearch(
  serverBlocks: readonly { readonly block: JsonObject }[],
  names: ToolNameMap,
): string[] {
  const loaded: string[] = [];
  for (const { block } of serverBlocks) {
    if (block['type'] !== 'tool_search_tool_result') continue;
    const content = block['content'];
    if (content === null || typeof content !== 'object' || Array.isArray(content)) continue;
    const references = content['tool_references'];
    if (!Array.isArray(references)) continue;
    for (const reference of references) {
      if (reference === null || typeof reference !== 'object' || Array.isArray(reference)) continue;
      const name = reference['tool_name'];
      if (typeof name === 'string') loaded.push(neutralToolName(names, name));
    }
  }
  return loaded;
}
