import type { JsonValue } from '@toolcircuit/core';
import { isJsonObject } from './json-utils.js';

/** `a/b~c` → `a~1b~0c` (RFC 6901). */
export function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

export function appendPointer(pointer: string, ...tokens: readonly (string | number)[]): string {
  return tokens.reduce<string>((path, token) => `${path}/${escapePointerToken(String(token))}`, pointer);
}

/**
 * Resolves a local reference (`#`, `#/$defs/x`, `#/properties/a/items`) against `root`.
 * Returns undefined when the reference is not local or points nowhere.
 */
export function resolveLocalRef(root: JsonValue, ref: string): { value: JsonValue; pointer: string } | undefined {
  if (!ref.startsWith('#')) return undefined;
  const fragment = decodeURIComponent(ref.slice(1));
  if (fragment === '') return { value: root, pointer: '' };
  if (!fragment.startsWith('/')) return undefined;
  let current: JsonValue = root;
  for (const raw of fragment.slice(1).split('/')) {
    const token = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(current)) {
      const index = Number(token);
      const next = Number.isInteger(index) ? current[index] : undefined;
      if (next === undefined) return undefined;
      current = next;
    } else if (isJsonObject(current) && Object.hasOwn(current, token)) {
      const next: JsonValue | undefined = current[token];
      if (next === undefined) return undefined;
      current = next;
    } else {
      return undefined;
    }
  }
  return { value: current, pointer: fragment };
}
