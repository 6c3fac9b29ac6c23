import { extname } from 'node:path';
import type { JsonObject } from '@toolcircuit/core';
import { parseCatalogue } from '@toolcircuit/schema';
import { loadCatalogueModule } from './load-catalogue-module.js';
import { parseJsonFile, readInputFile } from './read-input-file.js';

export interface ToolListEntry {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
}

const MODULE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']);

/**
 * The tools of a catalogue file for `lint` and `convert`: a JS/TS catalogue module, or JSON in any tool-list
 * shape @toolcircuit/schema reads (MCP tools/list, OpenAI and Anthropic tool arrays, Gemini declarations,
 * BFCL). JSON schemas are kept exactly as written, so lint sees what the file says.
 */
export async function loadToolList(file: string): Promise<ToolListEntry[]> {
  if (MODULE_EXTENSIONS.has(extname(file))) {
    const { catalogue } = await loadCatalogueModule(file);
    return catalogue.declarations.map((declaration) => ({ ...declaration }));
  }
  const data = parseJsonFile(await readInputFile(file, 'catalogue'), file, 'catalogue');
  return parseCatalogue(data, file).map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
  }));
}
