import { createHash } from 'node:crypto';

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
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function toJsonable(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && 'toJSON' in value && typeof value.toJSON === 'function') {
    return (value.toJSON as () => unknown)();
  }
  return value;
}
