import type { JsonObject, JsonValue } from '@toolcircuit/core';

// Written apart from src on purpose: the test oracles must not share the code they check.

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The node a local `$ref` (`#` or `#/a/b`, `~0`/`~1` escaped) points at in `root`; undefined if none. */
export function resolve(root: JsonObject, ref: string): JsonValue | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let current: JsonValue | undefined = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    current = isObject(current) ? current[key] : undefined;
  }
  return current;
}
