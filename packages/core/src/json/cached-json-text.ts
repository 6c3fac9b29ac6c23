/**
 * For adapters: the JSON text of each sealed object (see {@link sealForReuse}), made once. A converted
 * history message or a prepared tool list cannot change, so its text never needs making again.
 */
export type JsonTextCache = WeakMap<object, string>;

const sealed = new WeakSet<object>();

/**
 * Freezes (shallowly) an object the adapter itself built and will never change, nested values included, and
 * marks it so that {@link stringifyRequestBody} reuses its text. Only marked objects are reused: a value
 * that is merely frozen (a user's frozen options object, whose nested values may still change) is
 * serialised afresh every time. `cachedConversion` seals what it caches.
 */
export function sealForReuse<T extends object>(value: T): T {
  sealed.add(Object.freeze(value));
  return value;
}

/** {@link sealForReuse} on each element (the array itself is left as it is). */
export function sealEachForReuse<T extends object>(values: T[]): T[] {
  for (const value of values) sealForReuse(value);
  return values;
}

/**
 * Exactly `JSON.stringify(body)` for a request body (a plain object of JSON values), without re-serialising
 * what it has serialised before: the text of a sealed member, and of each sealed element of a member array,
 * is kept in `cache` by object identity. Providers are stateless, so every step sends the whole catalogue
 * and history again; only the new turn's messages (and the few scalar fields) are serialised per step.
 *
 * The contract `cachedConversion` already relies on: a sealed value's nested objects are never mutated.
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

/**
 * Exactly `JSON.stringify(values)` for an array an adapter places in a body itself, reusing text as
 * {@link stringifyRequestBody} does for a member array (the same cache, the same leading-run reuse). Cutting
 * the array out of a whole body's text instead would copy all of it once more on every step.
 */
export function stringifyRequestArray(values: readonly unknown[], cache: JsonTextCache): string {
  return memberText(values, cache) ?? 'null';
}

function memberText(value: unknown, cache: JsonTextCache): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const cached = sealedText(value, cache);
  if (cached !== undefined) return cached;
  // An array with a toJSON of its own is left to JSON.stringify, like any other non-plain value.
  if (!Array.isArray(value) || 'toJSON' in value) return JSON.stringify(value);
  return arrayText(value, cache);
}

/**
 * The joined text of an array's leading run of sealed objects, kept by its first element: the next step's
 * history starts with the same messages, so only the comparison of their identities is paid again, not the
 * joining of their texts. (A different cache would give the same texts: they depend only on the objects.)
 */
const leadingRuns = new WeakMap<object, { readonly elements: readonly object[]; readonly text: string }>();

function arrayText(value: readonly unknown[], cache: JsonTextCache): string {
  let run = 0;
  let runText = '';
  const first: unknown = value[0];
  const known = isSealed(first) ? leadingRuns.get(first) : undefined;
  const reused = known !== undefined && startsWith(value, known.elements);
  if (reused) {
    run = known.elements.length;
    runText = known.text;
  }
  const rest: string[] = [];
  for (let index = run; index < value.length; index += 1) {
    const element: unknown = value[index];
    // As JSON.stringify: holes, undefined and functions inside an array are written as null.
    const text = elementText(element, cache) ?? 'null';
    if (rest.length === 0 && index === run && isSealed(element)) {
      runText = run === 0 ? text : `${runText},${text}`;
      run += 1;
    } else {
      rest.push(text);
    }
  }
  if (run > 0 && (!reused || run > known.elements.length)) {
    leadingRuns.set(value[0] as object, { elements: value.slice(0, run) as object[], text: runText });
  }
  if (rest.length === 0) return `[${runText}]`;
  return run === 0 ? `[${rest.join(',')}]` : `[${runText},${rest.join(',')}]`;
}

function startsWith(value: readonly unknown[], elements: readonly object[]): boolean {
  if (elements.length > value.length) return false;
  for (let index = 0; index < elements.length; index += 1) if (value[index] !== elements[index]) return false;
  return true;
}

function isSealed(value: unknown): value is object {
  return value !== null && typeof value === 'object' && sealed.has(value);
}

function elementText(value: unknown, cache: JsonTextCache): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  return sealedText(value, cache) ?? JSON.stringify(value);
}

function sealedText(value: object, cache: JsonTextCache): string | undefined {
  if (!sealed.has(value)) return undefined;
  const hit = cache.get(value);
  if (hit !== undefined) return hit;
  const text = JSON.stringify(value);
  // undefined only for a toJSON returning undefined: not cacheable as text, and JSON.stringify says the same.
  if (text !== undefined) cache.set(value, text);
  return text;
}
