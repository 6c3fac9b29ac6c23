import { escapePointer } from '../json/escape-pointer.js';
import type { JsonValue } from '../json/json.js';

/** A leaf of an input (a string, number, boolean or null) and its JSON Pointer. */
export interface ArgumentLeaf {
  readonly path: string;
  readonly value: string | number | boolean | null;
  /** Set for a place nested too deep to be read: never found in trusted data (fail closed). */
  readonly tooDeep?: true;
}

/**
 * The segments of a trusted-only path: a JSON Pointer (RFC 6901: `/to`, `/items/0/iban`, `~1` for `/`,
 * `~0` for `~`) in which a segment `*` stands for every element of an array or member of an object.
 * `undefined` for a text that is no such pointer.
 */
export function pointerSegments(pointer: string): string[] | undefined {
  if (typeof pointer !== 'string' || !pointer.startsWith('/')) return undefined;
  const segments = pointer.slice(1).split('/');
  if (segments.some((segment) => /~(?![01])/.test(segment))) return undefined;
  return segments.map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/**
 * Every leaf at or below the pointer: a value there that is an array or an object has each of its leaves
 * checked (each element of a list of recipients, every field of a nested payee). A path the input does not
 * have selects nothing: there is no value to check.
 */
export function leavesAt(input: JsonValue, segments: readonly string[]): ArgumentLeaf[] {
  const leaves: ArgumentLeaf[] = [];
  select(input, segments, 0, '', leaves);
  return leaves;
}

/** Deeper than this, an input is not walked (nothing an argument needs; a hostile input may nest deeply). */
const MAX_DEPTH = 64;

function select(value: JsonValue, segments: readonly string[], at: number, path: string, leaves: ArgumentLeaf[]): void {
  if (at === segments.length) {
    collect(value, path, 0, leaves);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (at > MAX_DEPTH) {
    leaves.push({ path, value: null, tooDeep: true });
    return;
  }
  const segment = segments[at] as string;
  for (const [key, item] of childrenOf(value, segment))
    select(item, segments, at + 1, `${path}/${escapePointer(key)}`, leaves);
}

function childrenOf(
  value: readonly JsonValue[] | { [key: string]: JsonValue },
  segment: string,
): [string, JsonValue][] {
  if (Array.isArray(value)) {
    if (segment === '*') return value.map((item, index) => [String(index), item]);
    if (!/^(0|[1-9][0-9]*)$/.test(segment)) return [];
    const item = value[Number(segment)];
    return item === undefined ? [] : [[segment, item]];
  }
  const object = value as { [key: string]: JsonValue };
  if (segment === '*') return Object.entries(object);
  return Object.hasOwn(object, segment) ? [[segment, object[segment] as JsonValue]] : [];
}

function collect(value: JsonValue, path: string, depth: number, leaves: ArgumentLeaf[]): void {
  if (value === null || typeof value !== 'object') {
    leaves.push({ path, value });
    return;
  }
  if (depth > MAX_DEPTH) {
    leaves.push({ path, value: null, tooDeep: true });
    return;
  }
  const entries: [string, JsonValue][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  for (const [key, item] of entries) collect(item, `${path}/${escapePointer(key)}`, depth + 1, leaves);
}
