import { nodeCrypto } from '../platform/node-crypto.js';
import { sortedPlainJsonCopy } from './json-copy.js';
import { quoteJsonString } from './quote-json-string.js';

type Work =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'leave';
      readonly container: object;
    };

/**
 * Canonical JSON (RFC 8785 style): object keys sorted by UTF-16 code units, no whitespace, numbers and
 * strings as `JSON.stringify` writes them. Two inputs that mean the same JSON get the same text, which is
 * what makes an argument digest trustworthy (`{a:1,b:2}` and `{b:2,a:1}` are one confirmation).
 *
 * Iterative on purpose: model output can nest thousands of levels deep and `JSON.stringify` overflows the
 * stack at about 5,000 levels; a digest must never be the thing that crashes the circuit.
 *
 * Throws a TypeError for values JSON cannot carry (functions, symbols, bigints, non-finite numbers,
 * cycles); `undefined` object members are omitted, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  // Plain data (what JSON.parse makes) is copied with sorted keys and written by the engine's own
  // JSON.stringify, an order of magnitude cheaper than writing it here; anything else takes the walks below.
  const sorted = sortedPlainJsonCopy(value);
  if (sorted !== undefined) return JSON.stringify(sorted);
  return walkedCanonicalJson(value);
}

/** `canonicalJson` for a value already known not to be plain data: the walks, without trying the copy. */
export function walkedCanonicalJson(value: unknown): string {
  // Real inputs are shallow: the recursive writer is several times cheaper than the work stack below. Past
  // FAST_DEPTH it gives up (before the JS stack could overflow) and the iterative walk starts over.
  const fast = fastCanonical(value, 0, []);
  return fast === TOO_DEEP ? iterativeCanonical(value) : fast;
}

/** Nesting the recursive writer handles; far below the depth at which recursion could overflow the stack. */
const FAST_DEPTH = 64;
const TOO_DEEP: unique symbol = Symbol('too deep');

/**
 * The same text as the iterative walk, recursively. `open` holds the containers being written (a cycle is
 * a container met again inside itself). The same TypeErrors: the iterative walk is only re-run when too deep.
 */
function fastCanonical(raw: unknown, depth: number, open: object[]): string | typeof TOO_DEEP {
  const item = toJsonable(raw);
  if (typeof item === 'string') return quoteJsonString(item);
  if (typeof item === 'boolean' || item === null) return JSON.stringify(item);
  if (typeof item === 'number') {
    if (!Number.isFinite(item)) throw new TypeError(`canonicalJson: ${item} is not a JSON number`);
    return JSON.stringify(item);
  }
  if (typeof item !== 'object') throw new TypeError(`canonicalJson: a ${typeof item} is not a JSON value`);
  if (depth >= FAST_DEPTH) return TOO_DEEP;
  if (open.includes(item)) throw new TypeError('canonicalJson: the value contains a cycle');
  open.push(item);
  let text: string;
  if (Array.isArray(item)) {
    text = '[';
    for (let index = 0; index < item.length; index += 1) {
      // Array holes and undefined become null, as in JSON.stringify.
      const element: unknown = item[index];
      const written = fastCanonical(element === undefined ? null : element, depth + 1, open);
      if (written === TOO_DEEP) return TOO_DEEP;
      text += index > 0 ? `,${written}` : written;
    }
    text += ']';
  } else {
    const record = item as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    text = '{';
    let first = true;
    for (const key of keys) {
      const member = record[key];
      if (member === undefined) continue;
      const written = fastCanonical(member, depth + 1, open);
      if (written === TOO_DEEP) return TOO_DEEP;
      text += `${first ? '' : ','}${quoteJsonString(key)}:${written}`;
      first = false;
    }
    text += '}';
  }
  open.pop();
  return text;
}

function iterativeCanonical(value: unknown): string {
  const out: string[] = [];
  const stack: Work[] = [{ kind: 'value', value }];
  const open = new Set<object>();
  for (let work = stack.pop(); work !== undefined; work = stack.pop()) {
    if (work.kind === 'text') {
      out.push(work.text);
      continue;
    }
    if (work.kind === 'leave') {
      open.delete(work.container);
      continue;
    }
    const item = toJsonable(work.value);
    if (item === null || typeof item === 'boolean' || typeof item === 'string') {
      out.push(JSON.stringify(item));
      continue;
    }
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) throw new TypeError(`canonicalJson: ${item} is not a JSON number`);
      out.push(JSON.stringify(item));
      continue;
    }
    if (typeof item !== 'object') throw new TypeError(`canonicalJson: a ${typeof item} is not a JSON value`);
    if (open.has(item)) throw new TypeError('canonicalJson: the value contains a cycle');
    open.add(item);
    // Pushed in reverse: the stack pops the opening bracket first and the `leave` marker last.
    stack.push({ kind: 'leave', container: item });
    if (Array.isArray(item)) {
      stack.push({ kind: 'text', text: ']' });
      for (let index = item.length - 1; index >= 0; index -= 1) {
        // Array holes and undefined become null, as in JSON.stringify.
        const element: unknown = item[index];
        stack.push({ kind: 'value', value: element === undefined ? null : element });
        if (index > 0) stack.push({ kind: 'text', text: ',' });
      }
      stack.push({ kind: 'text', text: '[' });
      continue;
    }
    const record = item as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    stack.push({ kind: 'text', text: '}' });
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const key = keys[index] as string;
      stack.push({ kind: 'value', value: record[key] });
      stack.push({ kind: 'text', text: `${index > 0 ? ',' : ''}${JSON.stringify(key)}:` });
    }
    stack.push({ kind: 'text', text: '{' });
  }
  return out.join('');
}

/** The lowercase hex SHA-256 of a value's canonical JSON: the "argument digest" of confirmations and the journal. */
export function jsonDigest(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/** Lowercase hex SHA-256 of a text already in canonical form. */
export function sha256Hex(text: string): string {
  // The one-shot `hash` (Node ≥ 20.12; engines say ≥ 20.19) is about 3× cheaper than a Hash object per call.
  return nodeCrypto().hash('sha256', text, 'hex');
}

function toJsonable(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && 'toJSON' in value && typeof value.toJSON === 'function') {
    return (value.toJSON as () => unknown)();
  }
  return value;
}
