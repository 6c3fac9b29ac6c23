import type { JsonObject, JsonValue } from '@toolcircuit/core';
import type { LintFinding } from './lint-finding.js';
import { walkSchemaObjects } from './walk-schema-objects.js';

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SHOWN = 3;

/**
 * `open-object`, said once per file with what it costs: it fires on almost every MCP tool, so one line per
 * object would drown the findings that matter. Only objects that declare a shape count; a free-form map
 * (`{ type: object }` alone) is meant to be open.
 */
export function summarizeOpenObjects(
  tools: readonly { readonly name: string; readonly inputSchema: JsonObject }[],
): LintFinding[] {
  const places: { tool: string; path: string }[] = [];
  const perTool = new Set<string>();
  for (const tool of tools) {
    walkSchemaObjects(tool.inputSchema, (node, path) => {
      if (!isObject(node['properties'])) return;
      if (node['additionalProperties'] === false || node['unevaluatedProperties'] === false) return;
      places.push({ tool: tool.name, path });
      perTool.add(tool.name);
    });
  }
  const [first] = places;
  if (first === undefined) return [];
  const examples = places
    .slice(0, SHOWN)
    .map((place) => `${place.tool}${place.path === '' ? '' : ` ${place.path}`}`)
    .join(', ');
  return [
    {
      rule: 'open-object',
      level: 'warning',
      tool: first.tool,
      path: first.path,
      message:
        `${places.length} object schema(s) in ${perTool.size} of ${tools.length} tool(s) allow properties they do not declare (no "additionalProperties": false), e.g. ${examples}. ` +
        'Cost: on openai-strict such an object is closed (keys it does not declare cannot be sent), and one that declares open keys (additionalProperties: true or a schema) sends its tool with strict: false; elsewhere the model may add keys the tools never read.',
    },
  ];
}
