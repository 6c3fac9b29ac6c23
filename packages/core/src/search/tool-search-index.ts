import type { JsonObject, JsonValue } from '../json/json.js';
import type { ToolDeclaration } from '../messages/model.js';
import { Bm25Index } from './bm25-index.js';

/** One tool a search found, best first. */
export interface ToolSearchHit {
  readonly name: string;
  readonly score: number;
}

/** A search over tool declarations: free text in, the best matching tool names out. */
export interface ToolSearchIndex {
  readonly size: number;
  search(query: string, limit?: number): readonly ToolSearchHit[];
}

/**
 * Field weights: the name is the tool's shortest summary, the description what the model reads, parameter
 * names and descriptions what it needs; the weights were chosen on the BFCL questions (apps/bench, search recall).
 */
const WEIGHTS = { name: 2, description: 1, parameterNames: 1, parameterDescriptions: 1 } as const;

export const DEFAULT_TOOL_SEARCH_LIMIT = 5;

/**
 * A BM25F index over tool declarations: names (split on snake_case, camelCase, dots), descriptions and the
 * parameters' names and descriptions, found at any depth of the input schema. Built in memory in one pass,
 * no network and no model; deterministic, so the same query finds the same tools in every process.
 */
export function createToolSearchIndex(declarations: readonly ToolDeclaration[]): ToolSearchIndex {
  const index = new Bm25Index(
    declarations.map((declaration) => {
      const parameters = parametersOf(declaration.inputSchema);
      return {
        id: declaration.name,
        fields: [
          { text: declaration.name, weight: WEIGHTS.name },
          { text: declaration.description, weight: WEIGHTS.description },
          { text: parameters.names.join(' '), weight: WEIGHTS.parameterNames },
          { text: parameters.descriptions.join(' '), weight: WEIGHTS.parameterDescriptions },
        ],
      };
    }),
  );
  return {
    size: index.size,
    search: (query, limit = DEFAULT_TOOL_SEARCH_LIMIT) =>
      index.search(query, limit).map((hit) => ({ name: hit.id, score: hit.score })),
  };
}

/** Property names and descriptions anywhere in a schema (nested objects, array items, combinators). */
function parametersOf(schema: JsonObject): { names: string[]; descriptions: string[] } {
  const names: string[] = [];
  const descriptions: string[] = [];
  const seen = new Set<JsonValue>();
  const visit = (node: JsonValue | undefined, depth: number): void => {
    if (node === null || typeof node !== 'object' || depth > 8 || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const child of node) visit(child, depth + 1);
      return;
    }
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
    for (const key of ['items', 'anyOf', 'oneOf', 'allOf'] as const) visit(node[key], depth + 1);
  };
  visit(schema, 0);
  return { names, descriptions };
}
