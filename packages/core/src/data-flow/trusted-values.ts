import type { JsonValue } from '../json/json.js';
import { normaliseDigits, normaliseForMatch } from '../provenance/normalise-for-match.js';
import type { TrustedOrigin } from './data-flow-report.js';

/**
 * The run's trusted sources, indexed for one question: is this argument value, as a whole, in one of them?
 * "In" is exact after normalisation, never "not found in untrusted output":
 * - a string is found when it equals, once both went through `normaliseForMatch` (NFKC, invisible and
 *   look-alike characters, case, separators), a whole leaf of a trusted JSON value, a vouched value, or a
 *   run of consecutive whole words of a trusted text (`bob@example.com` is in "send it to bob@example.com.",
 *   `b@example.com` is not; "FR76 3000 6000" in a text matches the value `FR7630006000`);
 * - a number, or a string that reads as one, is found when a trusted text or leaf holds the same number as a
 *   whole numeric token, however its digits are grouped (`1250` in "1,250.00" and "1 250", not in "12500"
 *   or "A1250"); the sign is not compared (a dash is often punctuation), and digits with a leading zero (an
 *   account number) must be the same digits;
 * - `true`, `false` and `null` only as such leaves of a trusted JSON value or vouched values.
 * A value assembled from pieces (two halves, words from two places, a word and the model's own text) is not
 * found: composing a value is where an instruction the model read would act.
 */
export class TrustedValues {
  /** Whole values (JSON leaves, vouched values) by normalised key, with the earliest source that holds each. */
  readonly #exact = new Map<string, Found>();
  readonly #numbers = new Map<string, Found>();
  readonly #digits = new Map<string, Found>();
  readonly #literals = new Map<string, Found>();
  readonly #texts: IndexedText[] = [];

  /**
   * A trusted text. `turn`: the model turn whose call returned it; a value counts for calls of later turns
   * only (a call is judged by what existed when the model made it, as the provenance gate judges it, so a
   * verdict does not depend on which call of a turn settles first). 0: before the run's first turn.
   */
  addText(text: string, origin: TrustedOrigin, turn = 0): void {
    if (typeof text !== 'string' || text === '') return;
    this.#texts.push(indexText(text, { origin, turn }));
    for (const token of numericTokens(text)) this.#addNumber(token, { origin, turn });
  }

  /** A trusted JSON value: every string leaf as a value and as a text, every number, boolean and null. */
  addJson(value: unknown, origin: TrustedOrigin, turn = 0, depth = 0): void {
    if (depth > 64) return;
    const found: Found = { origin, turn };
    if (typeof value === 'string') {
      this.#addWhole(value, found);
      this.addText(value, origin, turn);
    } else if (typeof value === 'number') {
      this.#addNumber(numberText(value), found);
    } else if (typeof value === 'boolean' || value === null) {
      setEarliest(this.#literals, String(value), found);
    } else if (Array.isArray(value)) {
      for (const item of value) this.addJson(item, origin, turn, depth + 1);
    } else if (typeof value === 'object' && value !== null) {
      for (const item of Object.values(value)) this.addJson(item, origin, turn, depth + 1);
    }
  }

  /** A value someone vouched for, as a whole: it counts at once. */
  addValue(value: string | number | boolean, origin: TrustedOrigin): void {
    const found: Found = { origin, turn: 0 };
    if (typeof value === 'boolean') setEarliest(this.#literals, String(value), found);
    else if (typeof value === 'number') this.#addNumber(numberText(value), found);
    else {
      this.#addWhole(value, found);
      if (NUMERIC.test(value)) this.#addNumber(normaliseDigits(value.trim()), found);
    }
  }

  /** Where this leaf value is found among the sources a call of `turn` may use, or `undefined`. */
  find(value: JsonValue, turn = Number.POSITIVE_INFINITY): TrustedOrigin | undefined {
    const usable = (found: Found | undefined): TrustedOrigin | undefined =>
      found !== undefined && found.turn < turn ? found.origin : undefined;
    if (typeof value === 'boolean' || value === null) return usable(this.#literals.get(String(value)));
    if (typeof value === 'number')
      return Number.isFinite(value) ? usable(this.#findNumber(numberText(value))) : undefined;
    if (typeof value !== 'string') return undefined;
    if (NUMERIC.test(value)) return usable(this.#findNumber(normaliseDigits(value.trim())));
    const key = normaliseForMatch(value);
    if (key === '') return undefined;
    const exact = usable(this.#exact.get(key));
    if (exact !== undefined) return exact;
    for (const text of this.#texts) if (text.found.turn < turn && holdsRun(text, key)) return text.found.origin;
    return undefined;
  }

  #addWhole(value: string, found: Found): void {
    const key = normaliseForMatch(value);
    if (key !== '') setEarliest(this.#exact, key, found);
  }

  #addNumber(token: string, found: Found): void {
    const number = canonicalNumber(token);
    if (number === undefined) return;
    setEarliest(this.#numbers, number.value, found);
    setEarliest(this.#digits, number.digits, found);
  }

  #findNumber(token: string): Found | undefined {
    const number = canonicalNumber(token);
    if (number === undefined) return undefined;
    // Digits with a leading zero are an identifier (an account number), not an amount: the same digits.
    return number.leadingZero ? this.#digits.get(number.digits) : this.#numbers.get(number.value);
  }
}

/** A trusted source of a value, and the turn from which it counts. */
interface Found {
  readonly origin: TrustedOrigin;
  readonly turn: number;
}

interface IndexedText {
  readonly found: Found;
  /** The text's words, each normalised, in order. */
  readonly keys: readonly string[];
  /** Where each normalised word stands (a value's run starts at one of them). */
  readonly at: ReadonlyMap<string, readonly number[]>;
}

/** What separates words: spaces and punctuation that never belongs inside an address, a number or a code. */
const WORD_BREAK = /[\s,;:!?()[\]{}<>"'«»“”‘’„|]+/u;

function indexText(text: string, found: Found): IndexedText {
  const keys: string[] = [];
  const at = new Map<string, number[]>();
  for (const word of text.split(WORD_BREAK)) {
    const key = normaliseForMatch(word);
    if (key === '') continue;
    const positions = at.get(key);
    if (positions === undefined) at.set(key, [keys.length]);
    else positions.push(keys.length);
    keys.push(key);
  }
  return { found, keys, at };
}

/** Whether consecutive words of the text, run together, are exactly the value's key. */
function holdsRun(text: IndexedText, key: string): boolean {
  for (let length = 1; length <= key.length; length += 1) {
    const starts = text.at.get(key.slice(0, length));
    if (starts === undefined) continue;
    for (const start of starts) {
      let joined = key.slice(0, length);
      for (let index = start + 1; joined.length < key.length; index += 1) {
        const next = text.keys[index];
        if (next === undefined || !key.startsWith(next, joined.length)) break;
        joined += next;
      }
      if (joined === key) return true;
    }
  }
  return false;
}

/** A string that is a number, however its digits are grouped (`9 800`, `-54.20`, `1,234.5`, `0532013000`). */
const NUMERIC = /^\s*[+-]?[0-9][0-9\s'’_,.\u00a0\u2009\u202f]*\s*$/;
/** Numeric tokens of a text: not glued to letters, digits or a decimal point before them. */
const NUMERIC_TOKEN = /(?<![\p{L}\p{N}.,])\p{Nd}+(?:[.,]\p{Nd}+)?(?![\p{L}\p{N}])/gu;

function numericTokens(text: string): string[] {
  return normaliseDigits(text).match(NUMERIC_TOKEN) ?? [];
}

function numberText(value: number): string {
  return Number.isFinite(value) ? String(Math.abs(value)) : '';
}

/**
 * A numeric token as a number (`1250` for "1250.00" and "1 250,00": its grouping already dropped by
 * `normaliseDigits`, a remaining comma read as the decimal point) and as its digits.
 */
function canonicalNumber(token: string): { value: string; digits: string; leadingZero: boolean } | undefined {
  const unsigned = token.trim().replace(/^[+-]/, '');
  const grouped = normaliseDigits(unsigned).replace(/[\s'’_\u00a0\u2009\u202f]/g, '');
  if (!/^[0-9]+(?:[.,][0-9]+)?$/.test(grouped)) return undefined;
  const number = Number(grouped.replace(',', '.'));
  if (!Number.isFinite(number)) return undefined;
  return { value: String(number), digits: grouped.replace(/[.,]/g, ''), leadingZero: /^0[0-9]/.test(grouped) };
}

/** Keeps the source from which a value counts earliest (the first such, for the same turn). */
function setEarliest<K>(map: Map<K, Found>, key: K, found: Found): void {
  const known = map.get(key);
  if (known === undefined || found.turn < known.turn) map.set(key, found);
}
