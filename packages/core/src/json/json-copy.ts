import type { JsonValue } from './json.js';

/*
 * Why core has three plain-JSON walkers (this file's spread copy and key-by-key copy, and the catalogue's
 * `frozenJsonCopy`) rather than one with options. They differ where it matters: the spread copy clones each
 * object's layout (about twice as fast as building it key by key) but cannot sort keys; the sorted copy
 * (canonical JSON, the journal's digests) must insert keys in order; the catalogue's copy freezes, turns
 * `-0` into `0` as JSON does, allows deeper nesting and has a dry mode that copies nothing. And each one's
 * speed rests on V8's inline caches seeing few object layouts: one walker would have the catalogue's walk
 * over hundreds of vendors' schemas leave the per-call copies' caches megamorphic, as one spread shared by
 * inputs and outputs did (measured: both copies slower). Shared here: the JSON primitive check.
 */
const NOT_PLAIN: unique symbol = Symbol('not plain');
/** Nesting copied recursively; deeper values take the stringify path, which reports what it cannot carry. */
const COPY_DEPTH = 64;

/**
 * A copy of a value as JSON would carry it, keeping key order (what the model will read); `undefined` when
 * the value is not JSON. Plain data (what tools return almost always) is copied directly, several times
 * cheaper than `JSON.parse(JSON.stringify(…))`, object by object with a spread as {@link plainInputCopy}
 * does (with the same one difference: own enumerable symbol-keyed members, which JSON never reads, are
 * kept as they are); anything JSON would transform (`toJSON`, `undefined` members, class instances,
 * non-finite numbers, `-0`, `__proto__` keys, holes, deep nesting) takes that round trip, so what JSON
 * reads of the result is always exactly what the round trip would give.
 */
export function jsonCopy(value: unknown): JsonValue | undefined {
  // A tool's output, once per call: its own spread (see `spreadOutput`).
  const plain =
    typeof value === 'object' && value !== null ? spreadCopy(value, 0, spreadOutput) : plainCopy(value, 0, false);
  if (plain !== NOT_PLAIN) return plain;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
  } catch {
    return undefined;
  }
}

/**
 * The copy when the value is plain JSON data (what `JSON.parse` makes: no `toJSON`, class instances,
 * `undefined`, non-finite numbers, `-0`, `__proto__` keys, holes, or nesting past 64 levels), key order kept;
 * `undefined` for anything else, which the caller then handles the careful way.
 */
export function plainJsonCopy(value: unknown): JsonValue | undefined {
  const plain = plainCopy(value, 0, false);
  return plain === NOT_PLAIN ? undefined : plain;
}

/**
 * {@link plainJsonCopy} with every object's keys inserted in sorted order (UTF-16 code units), so that
 * `JSON.stringify` of it is the canonical text. `undefined` also when a key looks like an array index:
 * V8 orders those numerically ahead of the others whatever the insertion order.
 */
export function sortedPlainJsonCopy(value: unknown): JsonValue | undefined {
  const plain = plainCopy(value, 0, true);
  return plain === NOT_PLAIN ? undefined : plain;
}

/**
 * {@link plainJsonCopy} made the cheap way, for a tool's private copy of its input (once per call): each
 * object is copied with a spread, which V8 does by cloning the object's layout, and its members are then
 * checked and their objects replaced by copies; about twice as fast as building every object key by key.
 * The one difference: own enumerable symbol-keyed members (which JSON never carries and a parsed input
 * never has) are copied as they are, since looking for them costs more than the copy. What JSON reads of
 * the copy is what JSON reads of the value, and no object JSON reads is shared with it.
 *
 * The gain holds while the spread meets few object layouts (V8 caches up to four per spread): inputs of a
 * few tools. Tool outputs ({@link jsonCopy}) are spread elsewhere (see `spreadOutput`).
 */
export function plainInputCopy(value: unknown): JsonValue | undefined {
  const plain =
    typeof value === 'object' && value !== null ? spreadCopy(value, 0, spreadInput) : plainCopy(value, 0, false);
  return plain === NOT_PLAIN ? undefined : plain;
}

type Spread = (value: object) => Record<string, unknown>;

/**
 * One spread for tools' inputs, another for their outputs: V8 caches up to four object layouts per spread
 * expression, and inputs and outputs together overflowed one (sharing it made both copies slower, and
 * outputs were then copied key by key). Two functions, not two expressions in one, so no bundler or
 * minifier can fold them into one.
 */
const spreadInput: Spread = (value) => ({ ...value });
const spreadOutput: Spread = (value) => ({ ...value });

function spreadCopy(value: object, depth: number, spread: Spread): JsonValue | typeof NOT_PLAIN {
  if (depth >= COPY_DEPTH) return NOT_PLAIN;
  if (Array.isArray(value)) {
    // Element by element (a spread or `slice` of an array subclass would run its species constructor),
    // into an array of the right length: see `sizedArray`.
    const copy = sizedArray(value.length);
    for (let index = 0; index < value.length; index += 1) {
      const copied = memberCopy(value[index], depth, spread);
      if (copied === NOT_PLAIN) return NOT_PLAIN;
      copy[index] = copied;
    }
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  if ('toJSON' in value) return NOT_PLAIN;
  const copy = spread(value);
  for (const key in copy) {
    // The copy's prototype is Object.prototype, whose members are not enumerable: these are its own keys.
    if (key === '__proto__') return NOT_PLAIN;
    const member = copy[key];
    if (typeof member !== 'object' || member === null) {
      if (!isJsonPrimitive(member)) return NOT_PLAIN;
      continue;
    }
    const copied = spreadCopy(member, depth + 1, spread);
    if (copied === NOT_PLAIN) return NOT_PLAIN;
    copy[key] = copied;
  }
  return copy as JsonValue;
}

/**
 * An array for `length` members, filled in order by the caller (`copy[index] = …`). Pushing onto `[]`
 * gives V8 a backing store of 17 slots at the first push: a copied array of two members kept 15 empty
 * ones for as long as the copy lives (tool results stay in the conversation, journal inputs in the
 * journal). Past a few thousand members `new Array(length)` would make a slow dictionary-mode array, so a
 * long one grows as it is filled instead.
 */
function sizedArray(length: number): JsonValue[] {
  return length <= PRESIZED_ARRAY_LIMIT ? new Array<JsonValue>(length) : [];
}

const PRESIZED_ARRAY_LIMIT = 4096;

function memberCopy(member: unknown, depth: number, spread: Spread): JsonValue | typeof NOT_PLAIN {
  if (typeof member === 'object' && member !== null) return spreadCopy(member, depth + 1, spread);
  return isJsonPrimitive(member) ? (member as JsonValue) : NOT_PLAIN;
}

function isJsonPrimitive(value: unknown): boolean {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return true;
  return typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0);
}

const INDEX_LIKE = /^[0-9]+$/;

function plainCopy(value: unknown, depth: number, sorted: boolean): JsonValue | typeof NOT_PLAIN {
  if (typeof value !== 'object' || value === null) return isJsonPrimitive(value) ? (value as JsonValue) : NOT_PLAIN;
  if (depth >= COPY_DEPTH) return NOT_PLAIN;
  if (Array.isArray(value)) {
    const copy = sizedArray(value.length);
    for (let index = 0; index < value.length; index += 1) {
      const element: unknown = value[index];
      if (element === undefined) return NOT_PLAIN;
      const copied = plainCopy(element, depth + 1, sorted);
      if (copied === NOT_PLAIN) return NOT_PLAIN;
      copy[index] = copied;
    }
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  const record = value as Record<string, unknown>;
  // A `toJSON` member (own or not) changes what JSON carries; `__proto__` cannot be assigned as data.
  if ('toJSON' in record) return NOT_PLAIN;
  const copy: Record<string, JsonValue> = {};
  const keys = Object.keys(record);
  if (sorted) {
    // Many objects (model output included) already list their keys in order: checking is cheaper than sorting.
    if (!inOrder(keys)) keys.sort();
    // Only a key starting with a digit can be index-like: the pattern is not run on the others.
    for (const key of keys) if (startsWithDigit(key) && INDEX_LIKE.test(key)) return NOT_PLAIN;
  }
  for (const key of keys) {
    if (key === '__proto__') return NOT_PLAIN;
    const copied = plainCopy(record[key], depth + 1, sorted);
    if (copied === NOT_PLAIN) return NOT_PLAIN;
    copy[key] = copied;
  }
  return copy;
}

function inOrder(keys: readonly string[]): boolean {
  for (let index = 1; index < keys.length; index += 1) {
    if ((keys[index - 1] as string) > (keys[index] as string)) return false;
  }
  return true;
}

function startsWithDigit(key: string): boolean {
  const code = key.charCodeAt(0);
  return code >= 48 && code <= 57;
}
