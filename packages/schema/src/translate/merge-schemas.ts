import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { isJsonObject, jsonEquals } from '../json-utils.js';

/**
 * Conjunction of two schemas as one object (for `allOf`, `$ref` with siblings, keywords shared by `anyOf`
 * branches). Exact for disjoint keywords, `properties` (union), `required` (union), `type` and `enum`
 * (intersection); on any other conflict the first schema's value wins, which is looser than the real
 * conjunction and therefore sound (the executor validates the original).
 */
export function mergeSchemas(first: JsonObject, second: JsonObject): JsonObject {
  const result: JsonObject = { ...first };
  for (const [keyword, value] of Object.entries(second)) {
    const current = result[keyword];
    if (current === undefined) {
      result[keyword] = value;
    } else if (keyword === 'properties' && isJsonObject(current) && isJsonObject(value)) {
      result.properties = { ...value, ...current };
    } else if (keyword === 'required' && Array.isArray(current) && Array.isArray(value)) {
      result.required = [...new Set([...current, ...value])];
    } else if (keyword === 'type') {
      const both = intersectTypes(current, value);
      if (both.length > 0) result.type = both.length === 1 ? (both[0] ?? null) : both;
    } else if (keyword === 'enum' && Array.isArray(current) && Array.isArray(value)) {
      const both = current.filter((item) => value.some((other) => jsonEquals(item, other)));
      if (both.length > 0) result.enum = both;
    }
  }
  return result;
}

function intersectTypes(first: JsonValue, second: JsonValue): string[] {
  const a = toList(first);
  const b = toList(second);
  const result: string[] = [];
  for (const type of a) {
    if (b.includes(type)) result.push(type);
    else if (type === 'integer' && b.includes('number')) result.push('integer');
    else if (type === 'number' && b.includes('integer')) result.push('integer');
  }
  return [...new Set(result)];
}

function toList(type: JsonValue): string[] {
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === 'string') : [];
}
