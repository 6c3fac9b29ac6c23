/**
 * For adapters: the JSON text of each frozen object, made once. A frozen value from `cachedConversion` (a
 * converted history message, a prepared tool list) cannot change, so its text never needs making again.
 */
export type JsonTextCache = WeakMap<object, string>;

/**
 * Exactly `JSON.stringify(body)` for a request body (a plain object of JSON values), without re-serialising
 * what it has serialised before: the text of a frozen member, and of each frozen element of a member array,
 * is kept in `cache` by object identity. Providers are stateless, so every step sends the whole catalogue
 * and history again; only the new turn's messages (and the few scalar fields) are serialised per step.
 *
 * The contract `cachedConversion` already relies on: a frozen value's nested objects are never mutated.
 */
export function stringifyRequestBody(body: Readonly<Record<string, unknown>>, cache: JsonTextCache): string {
  let text = '{';
  for (const key of Object.keys(body)) {
    const member = memberText(body[key], cache);
    if (member === undefined) continue;
    text += `${text === '{' ? '' : ','}${JSON.stringify(key)}:${member}`;
  }
  return `${text}}`;
}

function memberText(value: unknown, cache: JsonTextCache): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const cached = frozenText(value, cache);
  if (cached !== undefined) return cached;
  // An array with a toJSON of its own is left to JSON.stringify, like any other non-plain value.
  if (!Array.isArray(value) || 'toJSON' in value) return JSON.stringify(value);
  const elements: string[] = [];
  for (let index = 0; index < value.length; index += 1) {
    const element: unknown = value[index];
    // As JSON.stringify: holes, undefined and functions inside an array are written as null.
    elements.push(elementText(element, cache) ?? 'null');
  }
  return `[${elements.join(',')}]`;
}

function elementText(value: unknown, cache: JsonTextCache): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  return frozenText(value, cache) ?? JSON.stringify(value);
}

function frozenText(value: object, cache: JsonTextCache): string | undefined {
  if (!Object.isFrozen(value)) return undefined;
  const hit = cache.get(value);
  if (hit !== undefined) return hit;
  const text = JSON.stringify(value);
  // undefined only for a toJSON returning undefined: not cacheable as text, and JSON.stringify says the same.
  if (text !== undefined) cache.set(value, text);
  return text;
}
