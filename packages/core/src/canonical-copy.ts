import { canonicalJson } from './canonical-json.js';
import type { JsonValue } from './json.js';
import { sortedPlainJsonCopy } from './json-copy.js';
import { quoteJsonString } from './quote-json-string.js';

/** A call input's canonical JSON text and a private copy of it. */
export interface CanonicalCopy {
  readonly canonical: string;
  /** Equal to `JSON.parse(canonical)`, key order included: a fresh value nobody else holds. */
  readonly copy: JsonValue;
}

const TOO_DEEP: unique symbol = Symbol('too deep');
/** As in `canonicalJson`: nesting written recursively before the depth-proof path takes over. */
const COPY_DEPTH = 64;

interface Walk {
  text: string;
  readonly open: object[];
}

/**
 * `canonicalJson(value)` and `JSON.parse` of it, in one walk instead of a text walk and a parse: per call
 * input the executor needs both (the canonical text for the digest and the journal, the copy for validation
 * and the tool). Past 64 levels, or for an `__proto__` key (which only JSON.parse makes as data), it is
 * exactly those two steps. Throws what `canonicalJson` throws.
 */
export function canonicalCopy(value: unknown): CanonicalCopy {
  // Plain data: the sorted copy is the copy, and the engine's JSON.stringify of it the canonical text.
  const sorted = sortedPlainJsonCopy(value);
  if (sorted !== undefined) return { canonical: JSON.stringify(sorted), copy: sorted };
  const walk: Walk = { text: '', open: [] };
  const copy = copyValue(value, 0, walk);
  if (copy !== TOO_DEEP) return { canonical: walk.text, copy };
  const canonical = canonicalJson(value);
  // JSON.parse copes with any depth, unlike structuredClone and JSON.stringify.
  return { canonical, copy: JSON.parse(canonical) as JsonValue };
}

function copyValue(raw: unknown, depth: number, walk: Walk): JsonValue | typeof TOO_DEEP {
  const item = toJsonable(raw);
  if (typeof item === 'string') {
    walk.text += quoteJsonString(item);
    return item;
  }
  if (typeof item === 'boolean' || item === null) {
    walk.text += JSON.stringify(item);
    return item;
  }
  if (typeof item === 'number') {
    if (!Number.isFinite(item)) throw new TypeError(`canonicalJson: ${item} is not a JSON number`);
    walk.text += JSON.stringify(item);
    // JSON has no -0: the parsed copy would hold 0.
    return item === 0 ? 0 : item;
  }
  if (typeof item !== 'object') throw new TypeError(`canonicalJson: a ${typeof item} is not a JSON value`);
  if (depth >= COPY_DEPTH) return TOO_DEEP;
  if (walk.open.includes(item)) throw new TypeError('canonicalJson: the value contains a cycle');
  walk.open.push(item);
  let copy: JsonValue;
  if (Array.isArray(item)) {
    const elements: JsonValue[] = [];
    walk.text += '[';
    for (let index = 0; index < item.length; index += 1) {
      if (index > 0) walk.text += ',';
      // Array holes and undefined become null, as in JSON.stringify.
      const element: unknown = item[index];
      const copied = copyValue(element === undefined ? null : element, depth + 1, walk);
      if (copied === TOO_DEEP) return TOO_DEEP;
      elements.push(copied);
    }
    walk.text += ']';
    copy = elements;
  } else {
    const record = item as Record<string, unknown>;
    const members: Record<string, JsonValue> = {};
    walk.text += '{';
    let first = true;
    for (const key of Object.keys(record).sort()) {
      const member = record[key];
      if (member === undefined) continue;
      if (key === '__proto__') return TOO_DEEP;
      walk.text += `${first ? '' : ','}${quoteJsonString(key)}:`;
      first = false;
      const copied = copyValue(member, depth + 1, walk);
      if (copied === TOO_DEEP) return TOO_DEEP;
      members[key] = copied;
    }
    walk.text += '}';
    copy = members;
  }
  walk.open.pop();
  return copy;
}

function toJsonable(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && 'toJSON' in value && typeof value.toJSON === 'function') {
    return (value.toJSON as () => unknown)();
  }
  return value;
}
