import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { CatalogueFormatError } from '../errors/catalogue-format-error.js';
import { isJsonObject } from '../json-utils.js';
import type { CatalogueTool } from './catalogue-tool.js';

/**
 * Reads the tool-list shapes real catalogues come in, into `{ name, description, inputSchema }`:
 * - MCP `tools/list` results (`{ tools: [{ name, description, inputSchema }] }`, bare or in a JSON-RPC `result`);
 * - OpenAI Chat tools (`[{ type: "function", function: { name, description, parameters } }]`), Responses
 *   tools (`[{ type: "function", name, parameters }]`) and legacy `functions` arrays;
 * - Anthropic tools and the shared corpus (`{ name, description, input_schema }`);
 * - Gemini (`{ functionDeclarations: [...] }` with `parameters` or `parametersJsonSchema`);
 * - BFCL entries (`{ name, description, parameters }`, or a question's `function: [...]` list).
 * A tool without any schema key takes no parameters (`{ type: "object", properties: {} }`). Nothing is
 * skipped: an entry the loader cannot read throws `CatalogueFormatError` naming the source and index.
 */
export function parseCatalogue(data: unknown, source = 'catalogue'): CatalogueTool[] {
  const entries = toolEntries(data as JsonValue, source);
  return entries.map((entry, index) => readTool(entry, `${source}[${index}]`));
}

function toolEntries(data: JsonValue, source: string): JsonValue[] {
  if (Array.isArray(data))
    return data.flatMap((item) =>
      isJsonObject(item) && Array.isArray(item.functionDeclarations) ? item.functionDeclarations : [item],
    );
  if (isJsonObject(data)) {
    for (const key of ['tools', 'functions', 'function', 'functionDeclarations']) {
      const value = data[key];
      if (Array.isArray(value)) return toolEntries(value, source);
    }
    if (isJsonObject(data.result)) return toolEntries(data.result, source);
    if (typeof data.name === 'string') return [data];
  }
  throw new CatalogueFormatError(
    source,
    'expected an array of tools or an object with "tools", "functions" or "functionDeclarations"',
  );
}

function readTool(entry: JsonValue, where: string): CatalogueTool {
  if (!isJsonObject(entry)) throw new CatalogueFormatError(where, 'a tool entry must be an object');
  const inner = entry.type === 'function' && isJsonObject(entry.function) ? entry.function : entry;
  const name = inner.name;
  if (typeof name !== 'string') throw new CatalogueFormatError(where, 'a tool entry needs a string "name"');
  const description = typeof inner.description === 'string' ? inner.description : '';
  let inputSchema: JsonObject | undefined;
  for (const key of ['inputSchema', 'input_schema', 'parameters', 'parametersJsonSchema']) {
    const value = inner[key];
    if (value === undefined || value === null) continue;
    if (!isJsonObject(value)) throw new CatalogueFormatError(where, `tool "${name}": "${key}" must be a JSON object`);
    inputSchema = value;
    break;
  }
  const tool: CatalogueTool = { name, description, inputSchema: inputSchema ?? { type: 'object', properties: {} } };
  return typeof entry.source === 'string' ? { ...tool, source: entry.source } : tool;
}
