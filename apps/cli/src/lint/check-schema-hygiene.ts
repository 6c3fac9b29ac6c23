import type { JsonObject, JsonValue } from '@toolcircuit/core';
import type { LintFinding } from './lint-finding.js';
import { pointerSegment, walkSchemaObjects } from './walk-schema-objects.js';

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `undocumented-property` findings for one tool's input schema. */
export function checkSchemaHygiene(tool: string, schema: JsonObject): LintFinding[] {
  const findings: LintFinding[] = [];
  walkSchemaObjects(schema, (node, path) => {
    const properties = node['properties'];
    if (!isObject(properties)) return;
    // Open objects are summarized once per file (summarize-open-objects.ts).
    for (const [name, property] of Object.entries(properties)) {
      if (!isObject(property) || typeof property['$ref'] === 'string') continue;
      const description = property['description'];
      if (typeof description === 'string' && description.trim() !== '') continue;
      findings.push({
        rule: 'undocumented-property',
        level: 'warning',
        tool,
        path: `${path}/properties/${pointerSegment(name)}`,
        message: `property "${name}"${path === '' ? '' : ` of ${where(path)}`} has no description.`,
      });
    }
  });
  return findings;
}

function where(path: string): string {
  return path === '' ? 'the input object' : `the object at ${path}`;
}
