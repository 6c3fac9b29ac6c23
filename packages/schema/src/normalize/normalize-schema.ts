import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { ChangeLog } from '../change-log.js';
import { SchemaTranslationError } from '../errors/schema-translation-error.js';
import { appendPointer } from '../json-pointer.js';
import { describeJson, isJsonObject } from '../json-utils.js';
import type { SchemaChange } from '../schema-change.js';
import { JSON_SCHEMA_TYPES, NON_STANDARD_TYPE_NAMES } from './bfcl-type-names.js';
import { ARRAY_SUBSCHEMA_KEYWORDS, MAP_SUBSCHEMA_KEYWORDS, SINGLE_SUBSCHEMA_KEYWORDS } from './subschema-keywords.js';

export interface NormalizedSchema {
  /** Standard JSON Schema (draft 2020-12 spelling) that accepts exactly what the original meant. */
  readonly schema: JsonObject;
  readonly changes: readonly SchemaChange[];
  /** Maps a pointer into `schema` back to the pointer into the original (they differ only under old tuples). */
  readonly originalPath: (normalizedPath: string) => string;
}

interface PathAlias {
  readonly normalized: string;
  readonly original: string;
}

/**
 * Rewrites the catalogue dialects real tool lists use into standard JSON Schema, keeping the tree's shape
 * so pointers stay valid: BFCL type names (`dict`, `float`, `any`…), the non-standard `optional` flag and
 * list, ToolBench's `example_value`, and draft-04..07 tuples (`items: [...]` → `prefixItems`).
 * Nothing here changes which values are valid, except `char` → `string` (looser).
 */
export function normalizeSchema(schema: JsonObject, options: { readonly toolName?: string } = {}): NormalizedSchema {
  const changes = new ChangeLog();
  const aliases: PathAlias[] = [];
  const normalized = normalizeNode(schema, '', { changes, aliases, toolName: options.toolName });
  const root = isJsonObject(normalized) ? normalized : {};
  const sorted = [...aliases].sort((a, b) => b.normalized.length - a.normalized.length);
  const originalPath = (path: string): string => {
    for (const alias of sorted) {
      if (path === alias.normalized || path.startsWith(`${alias.normalized}/`)) {
        return alias.original + path.slice(alias.normalized.length);
      }
    }
    return path;
  };
  return {
    schema: root,
    changes: changes.toArray().map((change) => ({ ...change, path: originalPath(change.path) })),
    originalPath,
  };
}

interface NormalizeContext {
  readonly changes: ChangeLog;
  readonly aliases: PathAlias[];
  readonly toolName: string | undefined;
}

function normalizeNode(node: JsonValue, path: string, context: NormalizeContext): JsonValue {
  if (!isJsonObject(node)) return node;
  const result: JsonObject = {};
  const notes: string[] = [];
  for (const [keyword, value] of Object.entries(node)) {
    const keywordPath = appendPointer(path, keyword);
    if (keyword === 'type') {
      const type = normalizeType(value, keywordPath, context);
      if (type !== undefined) result.type = type;
    } else if (keyword === 'optional' && (typeof value === 'boolean' || Array.isArray(value))) {
      // BFCL/ToolBench flag: `required` alone decides what is required, so the flag carries no constraint.
      context.changes.add(keywordPath, 'dropped', 'non-standard "optional" (only "required" counts)', keyword);
    } else if (keyword === 'example_value') {
      notes.push(`Example: ${describeJson(value)}`);
      context.changes.add(keywordPath, 'moved-to-description', 'non-standard "example_value"', keyword);
    } else if (keyword === 'items' && Array.isArray(value)) {
      result.prefixItems = value.map((item, index) =>
        normalizeNode(item, appendPointer(path, 'prefixItems', index), context),
      );
      context.aliases.push({ normalized: appendPointer(path, 'prefixItems'), original: keywordPath });
      context.changes.add(keywordPath, 'rewritten', 'tuple "items: [...]" read as "prefixItems"', keyword);
    } else if (keyword === 'additionalItems' && Array.isArray(node.items)) {
      result.items = normalizeNode(value, appendPointer(path, 'items'), context);
      context.aliases.push({ normalized: appendPointer(path, 'items'), original: keywordPath });
    } else if (keyword === 'additionalItems') {
      // Without a tuple `items`, draft-07 ignores additionalItems.
      context.changes.add(keywordPath, 'dropped', '"additionalItems" without tuple "items" has no effect', keyword);
    } else if (SINGLE_SUBSCHEMA_KEYWORDS.has(keyword)) {
      result[keyword] = normalizeNode(value, keywordPath, context);
    } else if (ARRAY_SUBSCHEMA_KEYWORDS.has(keyword) && Array.isArray(value)) {
      result[keyword] = value.map((item, index) => normalizeNode(item, appendPointer(keywordPath, index), context));
    } else if (MAP_SUBSCHEMA_KEYWORDS.has(keyword) && isJsonObject(value)) {
      const entries: JsonObject = {};
      for (const [name, subschema] of Object.entries(value)) {
        entries[name] = normalizeNode(subschema, appendPointer(keywordPath, name), context);
      }
      result[keyword] = entries;
    } else {
      result[keyword] = value;
    }
  }
  legacyExclusiveBounds(result, path, context);
  if (notes.length > 0) {
    const description =
      typeof result.description === 'string' && result.description !== '' ? `${result.description} ` : '';
    result.description = `${description}${notes.join(' ')}`;
  }
  return result;
}

/**
 * Draft-04 spelled exclusive bounds as booleans beside `minimum`/`maximum`; later drafts (and every
 * provider) take the number. Same meaning, new spelling.
 */
function legacyExclusiveBounds(node: JsonObject, path: string, context: NormalizeContext): void {
  for (const [exclusive, inclusive] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const flag = node[exclusive];
    if (typeof flag !== 'boolean') continue;
    const bound = node[inclusive];
    if (flag && typeof bound === 'number') {
      node[exclusive] = bound;
      delete node[inclusive];
    } else {
      delete node[exclusive];
    }
    context.changes.add(
      appendPointer(path, exclusive),
      'rewritten',
      `draft-04 boolean ${exclusive} → numeric`,
      exclusive,
    );
  }
}

function normalizeType(value: JsonValue, path: string, context: NormalizeContext): JsonValue | undefined {
  const names = Array.isArray(value) ? value : [value];
  const mapped: string[] = [];
  for (const name of names) {
    if (typeof name !== 'string') {
      throw new SchemaTranslationError({
        target: undefined,
        reason: 'invalid_schema',
        path,
        detail: `"type" must be a string or an array of strings, got ${describeJson(name)}`,
        toolName: context.toolName,
      });
    }
    if (JSON_SCHEMA_TYPES.has(name)) {
      mapped.push(name);
      continue;
    }
    if (!NON_STANDARD_TYPE_NAMES.has(name)) {
      throw new SchemaTranslationError({
        target: undefined,
        reason: 'unknown_type',
        path,
        detail: `type name "${name}" is neither JSON Schema nor a known catalogue dialect (dict, float, any…)`,
        toolName: context.toolName,
      });
    }
    const standard = NON_STANDARD_TYPE_NAMES.get(name);
    context.changes.add(
      path,
      'type-mapped',
      `"${name}" → ${standard === undefined ? 'any value' : `"${standard}"`}`,
      'type',
    );
    // "any" anywhere in a type list makes the whole list unconstrained.
    if (standard === undefined) return undefined;
    mapped.push(standard);
  }
  const unique = [...new Set(mapped)];
  if (!Array.isArray(value)) return unique[0];
  return unique;
}
