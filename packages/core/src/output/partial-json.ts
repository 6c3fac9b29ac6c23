import type { JsonValue } from '../json/json.js';

/**
 * What the prefix of a JSON text holds so far, for showing an answer while it streams: every complete
 * member and element, an unfinished string as far as it goes, and open objects and arrays closed. What cannot be known yet is left out rather than guessed (a key
 * without its value, `tru`, a number the text ends in). `undefined` when nothing is there yet or the text is not JSON.
 *
 * Tolerant only of the END of the text: a prefix that is already wrong (`{"a" 1`) gives what was read
 * before the fault. It is a preview; the answer is the complete text, parsed and validated.
 */
export function parsePartialJson(text: string): JsonValue | undefined {
  const reader = new PrefixReader(text);
  const value = reader.value();
  return value === MISSING ? undefined : value;
}

const MISSING: unique symbol = Symbol('missing');
type Read = JsonValue | typeof MISSING;

/** A reader that stops, keeping what it has, at the end of the text or at the first fault. */
class PrefixReader {
  #at = 0;
  /** Set at the end of the text or at a fault: every open value closes with what it has. */
  #stopped = false;

  constructor(readonly text: string) {}

  value(): Read {
    this.#space();
    const char = this.text[this.#at];
    if (char === undefined) return this.#stop();
    if (char === '{') return this.#object();
    if (char === '[') return this.#array();
    if (char === '"') return this.#string();
    if (char === '-' || (char >= '0' && char <= '9')) return this.#number();
    return this.#literal();
  }

  #object(): Read {
    this.#at += 1;
    const object: Record<string, JsonValue> = {};
    for (;;) {
      this.#space();
      if (this.#end()) return object;
      if (this.text[this.#at] === '}') {
        this.#at += 1;
        return object;
      }
      if (this.text[this.#at] === ',') {
        this.#at += 1;
        continue;
      }
      if (this.text[this.#at] !== '"') return this.#fault(object);
      const start = this.#at;
      const key = this.#string();
      // A key cut short is not a key yet.
      if (this.#stopped || key === MISSING || typeof key !== 'string') return object;
      this.#space();
      if (this.#end()) return object;
      if (this.text[this.#at] !== ':') {
        this.#at = start;
        return this.#fault(object);
      }
      this.#at += 1;
      const value = this.value();
      // Defined, not assigned: a key named `__proto__` is data in JSON, never the object's prototype.
      if (value !== MISSING)
        Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      if (this.#stopped) return object;
    }
  }

  #array(): Read {
    this.#at += 1;
    const array: JsonValue[] = [];
    for (;;) {
      this.#space();
      if (this.#end()) return array;
      if (this.text[this.#at] === ']') {
        this.#at += 1;
        return array;
      }
      if (this.text[this.#at] === ',') {
        this.#at += 1;
        continue;
      }
      const value = this.value();
      if (value !== MISSING) array.push(value);
      if (this.#stopped) return array;
    }
  }

  /** A string, or its beginning when the text ends inside it (an escape cut in half is left out). */
  #string(): Read {
    let end = this.#at + 1;
    for (;;) {
      const char = this.text[end];
      if (char === undefined) {
        this.#stopped = true;
        return decodedPrefix(this.text.slice(this.#at + 1, end));
      }
      if (char === '\\') end += 2;
      else if (char === '"') break;
      else end += 1;
    }
    try {
      const value = JSON.parse(this.text.slice(this.#at, end + 1)) as string;
      this.#at = end + 1;
      return value;
    } catch {
      return this.#fault(MISSING);
    }
  }

  #number(): Read {
    const match = /^-?(0|[1-9][0-9]*)?(\.[0-9]*)?([eE][+-]?[0-9]*)?/.exec(this.text.slice(this.#at));
    const raw = match?.[0] ?? '';
    this.#at += raw.length;
    // A number the text ends in may still grow (`12` → `125`, `1e1` → `1e10`): not known yet.
    if (this.#at >= this.text.length) return this.#stop();
    return /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(raw) ? Number(raw) : this.#fault(MISSING);
  }

  #literal(): Read {
    for (const [word, value] of LITERALS) {
      const rest = this.text.slice(this.#at, this.#at + word.length);
      if (rest === word) {
        this.#at += word.length;
        return value;
      }
      if (word.startsWith(rest) && this.#at + rest.length >= this.text.length) return this.#stop();
    }
    return this.#fault(MISSING);
  }

  #space(): void {
    while (this.#at < this.text.length && /\s/.test(this.text[this.#at] as string)) this.#at += 1;
  }

  #end(): boolean {
    if (this.#at < this.text.length) return false;
    this.#stopped = true;
    return true;
  }

  #stop(): typeof MISSING {
    this.#stopped = true;
    return MISSING;
  }

  #fault<T extends Read>(kept: T): T {
    this.#stopped = true;
    return kept;
  }
}

const LITERALS: readonly (readonly [string, JsonValue])[] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

/** The decoded text of an unterminated string body, without a trailing escape that is not complete. */
function decodedPrefix(body: string): string {
  for (let cut = body.length; cut >= Math.max(0, body.length - 6); cut -= 1) {
    try {
      return JSON.parse(`"${body.slice(0, cut)}"`) as string;
    } catch {
      // an escape (`\`, `\u12`) cut in half: drop its start and try again
    }
  }
  return '';
}
