import type { JsonObject, JsonValue } from '@toolcircuit/core';

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SCHEMA_SINGLES = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
] as const;

/** RFC 6901 escaping of one pointer segment. */
export function pointerSegment(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Calls `visit` on every subschema object of a JSON Schema with its JSON pointer, root first. Depth is
 * capped: catalogues from the wild can nest absurdly, and a lint must finish.
 */
export function walkSchemaObjects(
  schema: JsonObject,
  visit: (node: JsonObject, path: string) => void,
  maxDepth = 64,
): void {
  const walk = (node: JsonObject, path: string, depth: number): void => {
    visit(node, path);
    if (depth >= maxDepth) return;
    for (const key of SCHEMA_MAPS) {
      const map = node[key];
      if (!isObject(map)) continue;
      for (const [name, child] of Object.entries(map)) {
        if (isObject(child)) walk(child, `${path}/${key}/${pointerSegment(name)}`, depth + 1);
      }
    }
    for (const key of SCHEMA_LISTS) {
      const list = node[key];
      if (!Array.isArray(list)) continue;
      list.forEach((child, index) => {
        if (isObject(child)) walk(child, `${path}/${key}/${index}`, depth + 1);
      });
    }
    for (const key of SCHEMA_SINGLES) {
      const child = node[key];
      if (isObject(child)) walk(child, `${path}/${key}`, depth + 1);
      else if (key === 'items' && Array.isArray(child)) {
        child.forEach((item, index) => {
          if (isObject(item)) walk(item, `${path}/items/${index}`, depth + 1);
        });
      }
    }
  };
  walk(schema, '', 0);
}
