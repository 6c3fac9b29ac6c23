import { createHybridToolSearch, type ToolEmbeddingsOptions } from '../embeddings/hybrid-tool-search.js';
import type { JsonObject } from '../json/json.js';
import type { ToolResultPart } from '../messages/messages.js';
import type { ToolDeclaration } from '../messages/model.js';
import {
  createToolSearchIndex,
  DEFAULT_TOOL_SEARCH_LIMIT,
  type SearchableTool,
  type ToolSearchFilter,
  type ToolSearchHit,
} from '../search/tool-search-index.js';
import { everySession, type ToolContext, type ToolDefinition, type ToolResultOutput } from './tool.js';

export interface ToolSearchOptions {
  /** The search tool's name. Default `tool_search`; change it when a tool of yours already has that name. */
  readonly name?: string;
  /** Tools one search loads when the model does not say (default 5). */
  readonly defaultResults?: number;
  /** The most tools one search may load (default 10). */
  readonly maxResults?: number;
  /**
   * Hybrid retrieval: the lexical search fused with an embedding search, through the embedder the
   * application gives (`createOpenAIEmbedder`, `createGeminiEmbedder`, `createVoyageEmbedder`, or its own).
   * Without it the search is lexical only: no network, no model.
   */
  readonly embeddings?: ToolEmbeddingsOptions;
}

/**
 * The tool search of a catalogue that defers tools: the search tool the model is shown instead of the
 * deferred tools, and the index it searches. A search's result names the tools it loaded; the loop shows
 * those to the model from the next step on and lets calls to them through the four checks.
 */
export interface ToolSearch {
  /** The search tool's name, as the model calls it. */
  readonly name: string;
  /** The search tool as the model sees it. */
  readonly declaration: ToolDeclaration;
  /** The deferred tools, in registration order (with their namespace and aliases, when they have some). */
  readonly deferred: readonly SearchableTool[];
  isDeferred(name: string): boolean;
  /** The namespaces of the deferred tools (`search.namespace` on a tool), sorted; the model may filter by them. */
  readonly namespaces: readonly string[];
  /** The deferred tools that best match a free-text query, best first, within a namespace if one is given (lexical). */
  search(query: string, limit?: number, filter?: ToolSearchFilter): readonly ToolSearchHit[];
  /** What the search tool answers: the hybrid ranking when `embeddings` are configured, else `search`'s. */
  find(
    query: string,
    limit?: number,
    filter?: ToolSearchFilter,
    signal?: AbortSignal,
  ): Promise<readonly ToolSearchHit[]>;
  /** The tools a result of the search tool loaded (none for an error or a result it did not produce). */
  loadedBy(result: ToolResultPart): readonly string[];
}

export const DEFAULT_TOOL_SEARCH_NAME = 'tool_search';
const DEFAULT_MAX_RESULTS = 10;
const SHOWN_DESCRIPTION = 160;
/** Up to this many namespaces are listed as an enum of the search tool's `namespace` parameter. */
const MAX_LISTED_NAMESPACES = 60;

interface SearchInput {
  query: string;
  limit?: number;
  namespace?: string;
}

/** The search tool's definition, run like any other tool (journaled, validated, open to every session). */
export function toolSearchDefinition(
  deferred: readonly SearchableTool[],
  options: ToolSearchOptions = {},
): { definition: ToolDefinition<SearchInput>; search: Omit<ToolSearch, 'declaration'> } {
  const name = options.name ?? DEFAULT_TOOL_SEARCH_NAME;
  const maxResults = Math.max(1, Math.floor(options.maxResults ?? DEFAULT_MAX_RESULTS));
  const defaultResults = Math.min(
    maxResults,
    Math.max(1, Math.floor(options.defaultResults ?? DEFAULT_TOOL_SEARCH_LIMIT)),
  );
  const index = createToolSearchIndex(deferred);
  const byName = new Map(deferred.map((declaration) => [declaration.name, declaration]));
  const search = (query: string, limit?: number, filter?: ToolSearchFilter) =>
    index.search(query, Math.min(maxResults, limit ?? defaultResults), filter);
  const hybrid =
    options.embeddings === undefined ? undefined : createHybridToolSearch(deferred, index, options.embeddings);
  const find = async (query: string, limit?: number, filter?: ToolSearchFilter, signal?: AbortSignal) =>
    hybrid === undefined
      ? search(query, limit, filter)
      : hybrid.search(query, Math.min(maxResults, limit ?? defaultResults), filter, signal);
  const namespaces = index.namespaces;
  const definition: ToolDefinition<SearchInput> = Object.freeze({
    name,
    description:
      `Searches ${deferred.length} more tools that are not shown yet (by name, description and parameters) and ` +
      'loads the best matches: they can be called from your next step on. Use it when none of the tools shown ' +
      'fits the task; call a tool only once a search has loaded it. Search for one action at a time, in a few ' +
      'words naming the action and its object as a tool would describe them ("send sms message", "refund a ' +
      'payment"), not the whole request; search again with other words if nothing fits.' +
      (namespaces.length > 1 ? ' Give `namespace` when the task is about one service.' : ''),
    inputSchema: searchInputSchema(maxResults, defaultResults, namespaces),
    right: everySession,
    irreversible: false,
    // It only reads the catalogue's own descriptions, which the model is shown as tools anyway.
    outputTrust: 'trusted',
    run: async (input: SearchInput, context: ToolContext) =>
      searchResult(
        await find(
          input.query,
          input.limit,
          input.namespace === undefined ? undefined : { namespace: input.namespace },
          context.signal,
        ),
        byName,
        input.namespace === undefined ? [] : namespaces,
      ),
  });
  return {
    definition,
    search: {
      name,
      deferred,
      namespaces,
      isDeferred: (tool) => byName.has(tool),
      search,
      find,
      loadedBy: (result) => loadedNames(result, byName),
    },
  };
}

function searchInputSchema(maxResults: number, defaultResults: number, namespaces: readonly string[]): JsonObject {
  const properties: Record<string, JsonObject> = {
    query: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      description:
        'A few keywords for the one action wanted and its object, as a tool would describe them (e.g. "convert ' +
        'currency amount", "create calendar event"), not the user\'s whole message.',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: maxResults,
      description: `How many tools to load (default ${defaultResults}).`,
    },
  };
  if (namespaces.length > 1) {
    properties.namespace = {
      type: 'string',
      description: 'Only search the tools of this server or service. Leave it out to search them all.',
      ...(namespaces.length <= MAX_LISTED_NAMESPACES ? { enum: [...namespaces] } : { minLength: 1, maxLength: 200 }),
    };
  }
  return { type: 'object', properties, required: ['query'], additionalProperties: false };
}

function searchResult(
  hits: readonly ToolSearchHit[],
  byName: ReadonlyMap<string, ToolDeclaration>,
  namespaces: readonly string[],
): ToolResultOutput {
  if (hits.length === 0) {
    const scope =
      namespaces.length === 0
        ? ''
        : ` Or search without a namespace (there are: ${namespaces.slice(0, 30).join(', ')}).`;
    return {
      isError: false,
      content: [
        {
          type: 'text',
          text: `No tool matched that search. Try other words (what the tool does, not the task).${scope}`,
        },
        { type: 'json', value: { loaded: [] } },
      ],
    };
  }
  const lines = hits.map((hit) => {
    const description = byName.get(hit.name)?.description ?? '';
    const shown = description.length > SHOWN_DESCRIPTION ? `${description.slice(0, SHOWN_DESCRIPTION)}…` : description;
    return `- ${hit.name}: ${shown.replace(/\s+/g, ' ')}`;
  });
  return {
    isError: false,
    content: [
      {
        type: 'text',
        text: `Loaded ${hits.length} tool(s); you can call them from your next step:\n${lines.join('\n')}`,
      },
      { type: 'json', value: { loaded: hits.map((hit) => hit.name) } },
    ],
  };
}

/** Read back from the result's JSON part, keeping only deferred tools of this catalogue. */
function loadedNames(result: ToolResultPart, byName: ReadonlyMap<string, ToolDeclaration>): readonly string[] {
  if (result.isError || typeof result.content === 'string') return [];
  const names: string[] = [];
  for (const part of result.content) {
    if (part.type !== 'json' || part.value === null || typeof part.value !== 'object' || Array.isArray(part.value)) {
      continue;
    }
    const loaded = part.value.loaded;
    if (!Array.isArray(loaded)) continue;
    for (const name of loaded) if (typeof name === 'string' && byName.has(name)) names.push(name);
  }
  return names;
}
