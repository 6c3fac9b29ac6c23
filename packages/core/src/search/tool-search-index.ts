import type { JsonObject, JsonValue } from '../json/json.js';
import type { ToolDeclaration } from '../messages/model.js';
import { Bm25Index, type Bm25Tuning, DEFAULT_BM25_TUNING } from './bm25-index.js';
import { tokenize } from './tokenize.js';

/** One tool a search found, best first. */
export interface ToolSearchHit {
  readonly name: string;
  readonly score: number;
}

/**
 * A tool as the search sees it: its declaration, and optionally where it comes from and other words for it.
 * `namespace` is the server, vendor or product the tool belongs to ("github", "stripe"); `aliases` are words
 * people use for what it does that its description does not ("text" for an SMS tool, "voucher" for a coupon
 * tool). Both come from the application or an MCP server, never from a built-in synonym list.
 */
export interface SearchableTool extends ToolDeclaration {
  readonly namespace?: string;
  readonly aliases?: readonly string[];
}

/** Narrows one search. */
export interface ToolSearchFilter {
  /** Only tools of this namespace (compared without case). An unknown namespace finds nothing. */
  readonly namespace?: string;
}

/** A search over tool declarations: free text in, the best matching tool names out. */
export interface ToolSearchIndex {
  readonly size: number;
  /** The namespaces of the indexed tools, sorted (empty when no tool has one). */
  readonly namespaces: readonly string[];
  search(query: string, limit?: number, filter?: ToolSearchFilter): readonly ToolSearchHit[];
}

/** The weight of each kind of field of a tool, relative to the description. */
export interface ToolFieldWeights {
  readonly name: number;
  readonly namespace: number;
  readonly description: number;
  readonly parameterNames: number;
  readonly parameterDescriptions: number;
  readonly enumValues: number;
  readonly aliases: number;
}

/** Everything that ranks tools; the defaults were chosen on the tuning sets only (see BENCHMARKS.md). */
export interface ToolSearchTuning extends Bm25Tuning {
  readonly fields: ToolFieldWeights;
  /** The score factor of the tools of a namespace the query names ("…in my GitHub repo"); 1 turns it off. */
  readonly namespaceBoost: number;
}

export const DEFAULT_TOOL_SEARCH_TUNING: ToolSearchTuning = {
  ...DEFAULT_BM25_TUNING,
  fields: {
    name: 1.5,
    namespace: 0.5,
    description: 1,
    parameterNames: 1,
    parameterDescriptions: 0.5,
    enumValues: 0.5,
    aliases: 1.5,
  },
  // Off: on the tuning sets every boost tried (1.25× to 3×) lowered recall; the model's namespace filter stays.
  namespaceBoost: 1,
};

export const DEFAULT_TOOL_SEARCH_LIMIT = 5;

/**
 * A BM25F index over tool declarations: names (split on snake_case, camelCase, dots), namespace,
 * descriptions, the parameters' names, descriptions and enum values found at any depth of the input schema,
 * and aliases, each field weighted by what it is. Built in memory in one pass, no network and no model;
 * deterministic, so the same query finds the same tools in every process.
 */
export function createToolSearchIndex(
  tools: readonly SearchableTool[],
  tuning: ToolSearchTuning = DEFAULT_TOOL_SEARCH_TUNING,
): ToolSearchIndex {
  const weights = tuning.fields;
  const index = new Bm25Index(
    tools.map((tool) => {
      const parameters = parametersOf(tool.inputSchema);
      return {
        id: tool.name,
        fields: [
          { text: tool.name, weight: weights.name },
          { text: tool.namespace ?? '', weight: weights.namespace },
          { text: tool.description, weight: weights.description },
          { text: parameters.names.join(' '), weight: weights.parameterNames },
          { text: parameters.descriptions.join(' '), weight: weights.parameterDescriptions },
          { text: parameters.enumValues.join(' '), weight: weights.enumValues },
          { text: (tool.aliases ?? []).join(' '), weight: weights.aliases },
        ],
      };
    }),
    tuning,
  );
  const scopes = namespaceScopes(tools);
  return {
    size: index.size,
    namespaces: scopes.names,
    search: (query, limit = DEFAULT_TOOL_SEARCH_LIMIT, filter = {}) => {
      const wanted = filter.namespace?.toLowerCase();
      const named = tuning.namespaceBoost === 1 ? undefined : scopes.namedBy(query);
      const boost =
        wanted === undefined && named === undefined
          ? undefined
          : (position: number) => {
              const namespace = scopes.byPosition[position];
              if (wanted !== undefined) return namespace?.toLowerCase() === wanted ? 1 : 0;
              return namespace !== undefined && named?.has(namespace) ? tuning.namespaceBoost : 1;
            };
      return index.search(query, limit, boost).map((hit) => ({ name: hit.id, score: hit.score }));
    },
  };
}

/**
 * The namespaces of a catalogue, and which of them a query names: a namespace is named when the query holds
 * one of its name's words that few namespaces share ("github" in "github-mcp", not "mcp" or "server").
 */
function namespaceScopes(tools: readonly SearchableTool[]): {
  names: readonly string[];
  byPosition: readonly (string | undefined)[];
  namedBy: (query: string) => ReadonlySet<string> | undefined;
} {
  const byPosition = tools.map((tool) =>
    tool.namespace === undefined || tool.namespace === '' ? undefined : tool.namespace,
  );
  const names = [...new Set(byPosition.filter((name): name is string => name !== undefined))].sort();
  if (names.length < 2) return { names, byPosition, namedBy: () => undefined };
  const termsOf = new Map(names.map((name) => [name, new Set(tokenize(name))]));
  const shared = new Map<string, number>();
  for (const terms of termsOf.values()) for (const term of terms) shared.set(term, (shared.get(term) ?? 0) + 1);
  // A word in more than a quarter of the namespaces (and in more than one) names none of them.
  const telling = (term: string) => (shared.get(term) ?? 0) <= Math.max(1, names.length / 4);
  const byTerm = new Map<string, string[]>();
  for (const [name, terms] of termsOf) {
    for (const term of terms) if (telling(term)) byTerm.set(term, [...(byTerm.get(term) ?? []), name]);
  }
  return {
    names,
    byPosition,
    namedBy: (query) => {
      const named = new Set<string>();
      for (const term of tokenize(query)) for (const name of byTerm.get(term) ?? []) named.add(name);
      return named.size === 0 ? undefined : named;
    },
  };
}

/** Property names, descriptions and enum values anywhere in a schema (nested objects, items, combinators). */
function parametersOf(schema: JsonObject): { names: string[]; descriptions: string[]; enumValues: string[] } {
  const names: string[] = [];
  const descriptions: string[] = [];
  const enumValues: string[] = [];
  const seen = new Set<JsonValue>();
  const visit = (node: JsonValue | undefined, depth: number): void => {
    if (node === null || typeof node !== 'object' || depth > 8 || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const child of node) visit(child, depth + 1);
      return;
    }
    const values = node.enum;
    if (Array.isArray(values)) for (const value of values) if (typeof value === 'string') enumValues.push(value);
    if (typeof node.const === 'string') enumValues.push(node.const);
    const properties = node.properties;
    if (properties !== null && typeof properties === 'object' && !Array.isArray(properties)) {
      for (const [name, property] of Object.entries(properties)) {
        names.push(name);
        if (property !== null && typeof property === 'object' && !Array.isArray(property)) {
          if (typeof property.description === 'string') descriptions.push(property.description);
        }
        visit(property, depth + 1);
      }
    }
    for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties'] as const)
      visit(node[key], depth + 1);
  };
  visit(schema, 0);
  return { names, descriptions, enumValues };
}
