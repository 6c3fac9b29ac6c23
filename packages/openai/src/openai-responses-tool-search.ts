import type { DeferredTools, JsonObject, JsonValue, ModelRequest, ToolDeclaration } from '@toolcircuit/core';
import { sealForReuse } from '@toolcircuit/core/provider';
import type { FunctionTool, ResponseOutputItem, Tool } from 'openai/resources/responses/responses';
import { OpenAIConfigurationError } from './openai-configuration-error.js';
import { type OpenAIResponsesTools, prepareOpenAIResponsesTools } from './openai-responses-prepare-tools.js';
import type { OpenAISchemaOptions } from './openai-shared-tool-set.js';

/**
 * How deferred tools reach the model: `neutral` (default) sends core's search tool and the loaded tools;
 * `native` sends the deferred tools with `defer_loading: true` and the hosted `tool_search` tool, which the
 * API runs itself (its `tool_search_call` / `tool_search_output` items are kept in the history and sent back).
 * @see https://platform.openai.com/docs/guides/tools-tool-search
 */
export type OpenAIResponsesToolSearch = 'neutral' | 'native';

export function checkResponsesToolSearch(provider: string, value: unknown): OpenAIResponsesToolSearch {
  if (value === undefined) return 'neutral';
  if (value === 'neutral' || value === 'native') return value;
  throw new OpenAIConfigurationError(
    provider,
    'invalid_option',
    'toolSearch',
    `toolSearch must be 'neutral' or 'native', got ${JSON.stringify(value)}.`,
  );
}

// Keyed by the request's DeferredTools, which the loop keeps (same object) until a search loads something.
const cache = new WeakMap<DeferredTools, OpenAIResponsesTools>();

/** The request's tools for the hosted tool search; `undefined` in neutral mode or without deferred tools. */
export function nativeResponsesTools(
  request: ModelRequest,
  mode: OpenAIResponsesToolSearch,
  schemas: OpenAISchemaOptions,
): OpenAIResponsesTools | undefined {
  const deferred = request.deferredTools;
  if (mode === 'neutral' || deferred === undefined) return undefined;
  const cached = cache.get(deferred);
  if (cached !== undefined) return cached;
  const shown = request.tools.filter((tool) => tool.name !== deferred.searchTool);
  const all: ToolDeclaration[] = [...shown, ...deferred.tools];
  // Translated together so one name map covers the tools the hosted search may load.
  const prepared = prepareOpenAIResponsesTools(all, schemas);
  const tools: Tool[] = prepared.tools.map((tool, index) =>
    index < shown.length ? tool : sealForReuse({ ...(tool as FunctionTool), defer_loading: true }),
  );
  tools.push(sealForReuse({ type: 'tool_search' }));
  const native: OpenAIResponsesTools = { ...prepared, tools: sealForReuse(tools) };
  cache.set(deferred, native);
  return native;
}

export function isToolSearchItem(item: ResponseOutputItem): boolean {
  return item.type === 'tool_search_call' || item.type === 'tool_search_output';
}

/**
 * The function tools the turn's `tool_search_output` items loaded, by their catalogue names. The items are the
 * turn's hosted items (kept in its metadata as `hostedItems`, like every item the provider ran itself).
 */
export function toolsLoadedBySearch(
  items: readonly { readonly item: JsonObject }[],
  fromProviderName: (name: string) => string,
): string[] {
  const loaded: string[] = [];
  for (const { item } of items) {
    if (item['type'] !== 'tool_search_output' || !Array.isArray(item['tools'])) continue;
    for (const tool of item['tools']) {
      if (!isObject(tool) || tool['type'] !== 'function' || typeof tool['name'] !== 'string') continue;
      loaded.push(safeName(fromProviderName, tool['name']));
    }
  }
  return loaded;
}

function safeName(fromProviderName: (name: string) => string, name: string): string {
  try {
    return fromProviderName(name);
  } catch {
    return name;
  }
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
