import type { JsonObject } from '../json/json.js';
import type { ToolResultPart } from '../messages/messages.js';
import type { ToolDeclaration } from '../messages/model.js';
import { createToolSearchIndex, DEFAULT_TOOL_SEARCH_LIMIT, type ToolSearchHit } from '../search/tool-search-index.js';
import { everySession, type ToolDefinition, type ToolResultOutput } from './tool.js';

export interface ToolSearchOptions {
  /** The search tool's name. Default `tool_search`; change it when a tool of yours already has that name. */
  readonly name?: string;
  /** Tools one search loads when the model does not say (default 5). */
  readonly defaultResults?: number;
  /** The most tools one search may load (default 10). */
  readonly maxResults?: number;
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
  /** The deferred tools, in registration order. */
  readonly deferred: readonly ToolDeclaration[];
  isDeferred(name: string): boolean;
  /** The deferred tools that best match a free-text query, best first. */
  search(query: string, limit?: number): readonly ToolSearchHit[];
  /** The tools a result of the search tool loaded (none for an error or a result it did not produce). */
  loadedBy(result: ToolResultPart): readonly string[];
}

export const DEFAULT_TOOL_SEARCH_NAME = 'tool_search';
const DEFAULT_MAX_RESULTS = 10;
const SHOWN_DESCRIPTION = 160;

/** The search tool's definition, run like any other tool (journaled, validated, open to every session). */
export function toolSearchDefinition(
  deferred: readonly ToolDeclaration[],
  options: ToolSearchOptions = {},
): { definition: ToolDefinition<{ query: string; limit?: number }>; search: Omit<ToolSearch, 'declaration'> } {
  const name = options.name ?? DEFAULT_TOOL_SEARCH_NAME;
  const maxResults = Math.max(1, Math.floor(options.maxResults ?? DEFAULT_MAX_RESULTS));
  const defaultResults = Math.min(
    maxResults,
    Math.max(1, Math.floor(options.defaultResults ?? DEFAULT_TOOL_SEARCH_LIMIT)),
  );
  const index = createToolSearchIndex(deferred);
  const byName = new Map(deferred.map((declaration) => [declaration.name, declaration]));
  const search = (query: string, limit?: number) => index.search(query, Math.min(maxResults, limit ?? defaultResults));
  const inputSchema: JsonObject = {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        maxLength: 1000,
        description: 'What the tool should do, in a few keywords (e.g. "convert currency amount").',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: maxResults,
        description: `How many tools to load (default ${defaultResults}).`,
      },
    },
    required: ['query'],
    additionalProperties: false,
  };
  const definition: ToolDefinition<{ query: string; limit?: number }> = Object.freeze({
    name,
    description:
      `Searches ${deferred.length} more tools that are not shown yet (by name, description and parameters) and ` +
      'loads the best matches: they can be called from your next step on. Use it when none of the tools shown ' +
      'fits the task; call a tool only once a search has loaded it.',
    inputSchema,
    right: everySession,
    irreversible: false,
    // It only reads the catalogue's own descriptions, which the model is shown as tools anyway.
    outputTrust: 'trusted',
    run: (input: { query: string; limit?: number }) => searchResult(search(input.query, input.limit), byName),
  });
  return {
    definition,
    search: {
      name,
      deferred,
      isDeferred: (tool) => byName.has(tool),
      search,
      loadedBy: (result) => loadedNames(result, byName),
    },
  };
}

function searchResult(hits: readonly ToolSearchHit[], byName: ReadonlyMap<string, ToolDeclaration>): ToolResultOutput {
  if (hits.length === 0) {
    return {
      isError: false,
      content: [
        { type: 'text', text: 'No tool matched that search. Try other words (what the tool does, not the task).' },
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
