import type { JsonObject } from '@toolcircuit/core';
import type { LintFinding } from './lint-finding.js';
import { isObject, walkSchemaObjects } from './walk-schema-objects.js';

/**
 * `impossible-required` findings: an object that requires a property it also forbids
 * (`additionalProperties: false` and the name in neither `properties` nor a `patternProperties` pattern).
 * No input can satisfy it, so every call is refused by the schema check and the model cannot find out why.
 */
export function checkImpossibleRequired(tool: string, schema: JsonObject): LintFinding[] {
  const findings: LintFinding[] = [];
  walkSchemaObjects(schema, (node, path) => {
    const required = node['required'];
    if (node['additionalProperties'] !== false || !Array.isArray(required)) return;
    const properties = isObject(node['properties']) ? node['properties'] : {};
    const patterns = isObject(node['patternProperties']) ? Object.keys(node['patternProperties']) : [];
    for (const name of required) {
      if (typeof name !== 'string' || Object.hasOwn(properties, name)) continue;
      if (patterns.some((pattern) => matches(pattern, name))) continue;
      findings.push({
        rule: 'impossible-required',
        level: 'error',
        tool,
        path: `${path}/required`,
        message:
          `"${name}" is required${path === '' ? '' : ` at ${path}`} but not in "properties", and ` +
          '"additionalProperties": false forbids it: no input is valid. Declare the property, or stop requiring it.',
      });
    }
  });
  return findings;
}

/** A pattern that does not compile is core's to report; here it is taken to allow the name. */
function matches(pattern: string, name: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(name);
  } catch {
    return true;
  }
}
