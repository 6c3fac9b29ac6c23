import { canonicalJson } from '../json/canonical-json.js';
import { nodeCrypto } from '../platform/node-crypto.js';
import type { SearchableTool } from '../search/tool-search-index.js';

const SCHEMA_WORDS = 600;

/**
 * The text a tool is embedded as: its name with the identifier split into words, its namespace, its
 * description, its aliases, and its parameters' names and descriptions (cut to a few hundred characters:
 * embedding models weigh the start of a text most, and the schema's detail is what the model reads later).
 */
export function toolEmbeddingText(tool: SearchableTool): string {
  const name = tool.name.replace(/[_.-]+/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  const parameters = Object.entries(propertiesOf(tool.inputSchema))
    .map(([key, value]) => (typeof value.description === 'string' ? `${key}: ${value.description}` : key))
    .join('; ')
    .slice(0, SCHEMA_WORDS);
  return [
    tool.namespace === undefined ? name : `${tool.namespace} · ${name}`,
    tool.description,
    tool.aliases === undefined || tool.aliases.length === 0 ? '' : `Also: ${tool.aliases.join(', ')}.`,
    parameters === '' ? '' : `Parameters: ${parameters}`,
  ]
    .filter((part) => part !== '')
    .join('\n');
}

/** The cache key of a tool's vector: the embedder's id and the digest of the tool as the search sees it. */
export function toolVectorKey(embedderId: string, tool: SearchableTool): string {
  const definition = canonicalJson({
    name: tool.name,
    namespace: tool.namespace ?? null,
    description: tool.description,
    inputSchema: tool.inputSchema,
    aliases: tool.aliases ?? [],
  });
  const digest = nodeCrypto().createHash('sha256').update(definition).digest('hex');
  // Text any database stores (PostgreSQL refuses NUL); the digest is fixed-length, so the split is unambiguous.
  return `${embedderId}|sha256:${digest}`;
}

function propertiesOf(schema: SearchableTool['inputSchema']): Record<string, { description?: unknown }> {
  const properties = schema.properties;
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return {};
  const result: Record<string, { description?: unknown }> = {};
  for (const [key, value] of Object.entries(properties)) {
    result[key] = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
  }
  return result;
}
