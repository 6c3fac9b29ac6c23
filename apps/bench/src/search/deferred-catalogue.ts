import { type Catalogue, createCatalogue, everySession, type ToolDefinition } from '@toolcircuit/core';
import { corpusDeclarations } from './search-corpus.js';

/** Vendor MCP servers and function-calling sets, in this order, until the catalogue has its size. */
const SOURCES = [
  'mcp_github_mcp_server.json',
  'mcp_notion.json',
  'mcp_reference_servers.json',
  'mcp_reference_servers_archived.json',
  'mcp_mcpbench.json',
  'api_bank_openai_tools.json',
  'toolbench_openai_functions.json',
];

export const DEFERRED_CATALOGUE_SIZE = 600;

/**
 * A catalogue of `size` real tools from the corpus (the first ones every provider accepts, names unique),
 * each answering `{ ok: true }`. `defer: true` hides them all behind the search tool.
 */
export function corpusCatalogue(options: { readonly defer: boolean; readonly size?: number }): Catalogue {
  const size = options.size ?? DEFERRED_CATALOGUE_SIZE;
  const definitions: ToolDefinition<never>[] = corpusDeclarations(SOURCES).map((declaration) => ({
    name: declaration.name,
    description: declaration.description,
    inputSchema: declaration.inputSchema,
    right: everySession,
    irreversible: false,
    run: () => ({ ok: true, tool: declaration.name }),
  }));
  const lenient = createCatalogue(definitions, { mode: 'lenient' });
  const kept = new Set(lenient.names.slice(0, size));
  if (kept.size < size) throw new Error(`the corpus gave ${kept.size} valid tools, fewer than ${size}`);
  return createCatalogue(
    definitions.filter((definition) => kept.has(definition.name) && kept.delete(definition.name)),
    { defer: options.defer },
  );
}
