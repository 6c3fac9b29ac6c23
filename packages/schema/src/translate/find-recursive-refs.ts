import type { JsonObject, JsonValue } from '@toolcircuit/core';
import { appendPointer, resolveLocalRef } from '../json-pointer.js';
import { isJsonObject } from '../json-utils.js';
import {
  ARRAY_SUBSCHEMA_KEYWORDS,
  MAP_SUBSCHEMA_KEYWORDS,
  SINGLE_SUBSCHEMA_KEYWORDS,
} from '../normalize/subschema-keywords.js';

/**
 * Pointers of the schema nodes that recursion re-enters: a depth-first walk over subschemas AND `$ref`
 * edges, where every edge back to a node still being walked marks that node. Every cycle holds at least
 * one such back edge, so treating the marked nodes specially (a `$defs` entry, or a depth counter) is
 * enough to make translation terminate. Unresolvable refs are ignored here; the walker reports them.
 */
export function findRecursiveRefs(root: JsonObject): ReadonlySet<string> {
  const recursive = new Set<string>();
  const onStack = new Set<string>();
  const done = new Set<string>();

  const visit = (node: JsonValue, pointer: string): void => {
    if (done.has(pointer)) return;
    if (onStack.has(pointer)) {
      recursive.add(pointer);
      return;
    }
    if (!isJsonObject(node)) return;
    onStack.add(pointer);
    for (const [child, childPointer] of subschemasOf(node, pointer)) visit(child, childPointer);
    if (typeof node.$ref === 'string') {
      const target = resolveLocalRef(root, node.$ref);
      if (target !== undefined) visit(target.value, target.pointer);
    }
    onStack.delete(pointer);
    done.add(pointer);
  };

  visit(root, '');
  return recursive;
}

/** Every direct subschema of a node, with its pointer. */
export function subschemasOf(node: JsonObject, pointer: string): [JsonValue, string][] {
  const children: [JsonValue, string][] = [];
  for (const [keyword, value] of Object.entries(node)) {
    if (SINGLE_SUBSCHEMA_KEYWORDS.has(keyword)) {
      if (Array.isArray(value)) {
        value.forEach((item, index) => {
          children.push([item, appendPointer(pointer, keyword, index)]);
        });
      } else {
        children.push([value, appendPointer(pointer, keyword)]);
      }
    } else if (ARRAY_SUBSCHEMA_KEYWORDS.has(keyword) && Array.isArray(value)) {
      value.forEach((item, index) => {
        children.push([item, appendPointer(pointer, keyword, index)]);
      });
    } else if (MAP_SUBSCHEMA_KEYWORDS.has(keyword) && isJsonObject(value)) {
      for (const [name, item] of Object.entries(value)) children.push([item, appendPointer(pointer, keyword, name)]);
    }
  }
  return children;
}
