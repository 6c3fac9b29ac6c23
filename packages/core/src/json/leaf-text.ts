/**
 * The string and number leaves of a JSON value, one per line, with object keys (a key can carry text too),
 * except the keys in `skip` at any depth and their values (a provider item's `type` tags, opaque payloads).
 */
export function leafText(value: unknown, skip: readonly string[] = []): string {
  const pieces: string[] = [];
  collectLeaves(value, pieces, skip, true);
  return pieces.join('\n');
}

/**
 * Pushes the leaves of `value` (and its object keys) onto `into`. `skip` drops those keys with their values,
 * at the top level only unless `skipDeep`.
 */
export function collectLeaves(value: unknown, into: string[], skip: readonly string[] = [], skipDeep = false): void {
  collect(value, into, 0, skip, skipDeep);
}

function collect(value: unknown, into: string[], depth: number, skip: readonly string[], skipDeep: boolean): void {
  // Values are JSON copies, so there are no cycles; the depth bound only keeps a hostile nesting cheap.
  if (depth > 64) return;
  const inner = skipDeep ? skip : NONE;
  if (typeof value === 'string') into.push(value);
  else if (typeof value === 'number') into.push(String(value));
  else if (Array.isArray(value)) for (const item of value) collect(item, into, depth + 1, inner, skipDeep);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (skip.includes(key)) continue;
      into.push(key);
      collect(item, into, depth + 1, inner, skipDeep);
    }
  }
}

const NONE: readonly string[] = [];
