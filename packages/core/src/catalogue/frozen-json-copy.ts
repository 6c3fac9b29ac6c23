const MAX_DEPTH = 200;

/**
 * A deeply frozen private copy of a JSON value: the catalogue must not change if the caller later mutates
 * the schema it passed. Exactly `JSON.parse(JSON.stringify(value))`, frozen: plain data (plain objects,
 * arrays, strings, booleans, null, finite numbers) is copied directly, strings shared, which is several
 * times cheaper than serialising and parsing long descriptions; anything JSON would transform (`toJSON`,
 * `undefined`, a function, a non-finite number, a class instance, a `__proto__` key, very deep nesting,
 * perhaps a cycle) takes the `JSON` round trip itself, so the result is the same in every case. Throws what
 * `JSON.stringify` throws (a cycle, a BigInt).
 */
export function frozenJsonCopy(value: unknown): unknown {
  const copied = copyPlain(value, 0, false);
  return deepFreeze(copied === NOT_PLAIN ? JSON.parse(JSON.stringify(value)) : copied);
}

/**
 * Whether `frozenJsonCopy(value)` would be a direct copy of `value` (plain data: no `JSON` round trip, so
 * equal to it member by member, and nothing thrown), found without copying anything.
 */
export function isPlainJson(value: unknown): boolean {
  return copyPlain(value, 0, true) !== NOT_PLAIN;
}

const NOT_PLAIN: unique symbol = Symbol('not plain JSON data');

/**
 * The copy, or NOT_PLAIN; with `dry`, only the verdict (the value itself stands for its copy). Kept apart
 * from json/json-copy.ts's walkers on purpose: see the note at the top of that file.
 */
function copyPlain(value: unknown, depth: number, dry: boolean): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // JSON writes -0 as 0.
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : NOT_PLAIN;
    case 'object':
      break;
    default:
      return NOT_PLAIN;
  }
  if (value === null) return null;
  if (depth > MAX_DEPTH) return NOT_PLAIN;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype || 'toJSON' in value) return NOT_PLAIN;
    const copy: unknown[] = dry ? value : new Array(value.length);
    for (let index = 0; index < value.length; index += 1) {
      const element = copyPlain(value[index], depth + 1, dry);
      if (element === NOT_PLAIN) return NOT_PLAIN;
      if (!dry) copy[index] = element;
    }
    return dry ? value : Object.freeze(copy);
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if ((prototype !== Object.prototype && prototype !== null) || 'toJSON' in value) return NOT_PLAIN;
  const copy: Record<string, unknown> = dry ? (value as Record<string, unknown>) : {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__') return NOT_PLAIN;
    const member = copyPlain((value as Record<string, unknown>)[key], depth + 1, dry);
    if (member === NOT_PLAIN) return NOT_PLAIN;
    if (!dry) copy[key] = member;
  }
  return dry ? value : Object.freeze(copy);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
