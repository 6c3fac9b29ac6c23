import type { JsonObject, JsonValue } from '@toolcircuit/core';
import type { ChangeLog } from '../change-log.js';
import { SchemaTranslationError } from '../errors/schema-translation-error.js';
import { describeJson, isJsonObject } from '../json-utils.js';
import { subschemasOf } from './find-recursive-refs.js';

/**
 * OpenAI without strict mode takes JSON Schema nearly as it is; it rejects (recorded in issue threads)
 * a root that is not an object with `properties` ("object schema missing properties") and arrays
 * without `items`. Only those are fixed; everything else passes through.
 */
export function translateForOpenAI(
  normalized: JsonObject,
  changes: ChangeLog,
  originalPath: (path: string) => string,
  toolName: string | undefined,
): JsonObject {
  const schema = structuredClone(normalized);
  const type = schema.type;
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : undefined;
  if (types !== undefined && !types.includes('object')) {
    throw new SchemaTranslationError({
      target: 'openai',
      reason: 'root_not_object',
      path: '/type',
      detail: `root type ${describeJson(type ?? null)}; tool arguments are an object of named values`,
      toolName,
    });
  }
  if (type !== 'object') {
    schema.type = 'object';
    changes.add(types === undefined ? '' : '/type', 'rewritten', 'root declared as type object', 'type');
  }
  if (!isJsonObject(schema.properties)) {
    schema.properties = {};
    changes.add('', 'rewritten', 'root without properties gets `properties: {}`', 'properties');
  }
  addMissingItems(schema, '', changes, originalPath);
  return schema;
}

function addMissingItems(
  node: JsonValue,
  pointer: string,
  changes: ChangeLog,
  originalPath: (path: string) => string,
): void {
  if (!isJsonObject(node)) return;
  const type = node.type;
  const isArray = type === 'array' || (Array.isArray(type) && type.includes('array'));
  if (isArray && node.items === undefined && node.prefixItems === undefined) {
    node.items = {};
    changes.add(originalPath(pointer), 'rewritten', 'array without "items" gets `items: {}` (any element)', 'items');
  }
  for (const [child, childPointer] of subschemasOf(node, pointer))
    addMissingItems(child, childPointer, changes, originalPath);
}
