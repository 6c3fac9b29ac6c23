import { escapePointer } from '../json/escape-pointer.js';
import type { FlaggedArgument } from './confirmation-request.js';
import { decodedForms, normaliseDigits, normaliseForMatch } from './normalise-for-match.js';
import { refOf, type TaintSource, type TaintSourceRef } from './taint-source.js';

export const DEFAULT_MIN_VERBATIM_LENGTH = 4;

/**
 * Which argument values were copied from untrusted output, so the human is shown where they came from:
 * 1. verbatim: a string of at least `minLength` characters (after trimming) that occurs in a source's text
 *    (an IBAN, an address, a path or a sentence copied from an email; shorter strings such as "EUR" occur
 *    everywhere and would flag everything), or a number or digit string that occurs there as a whole token
 *    (`100` is found in "pay 100 now", `"amount": 100` and "100.00", not in "1000" or "100.5");
 * 2. normalised: the same after both texts went through `normaliseForMatch` (re-cased, re-spaced,
 *    re-punctuated, with invisible or look-alike characters) and, for digits, `normaliseDigits` (`9 800`);
 * 3. decoded: the value is base64-, URL- or hex-encoded text found in a source, or a source holds such an
 *    encoding of the value;
 * 4. joined: a value split over consecutive arguments (`["GB3", "3BU", …]`), whose pieces found together.
 * The first way that finds a value is the one reported. Object keys are not arguments' values.
 */
export function flaggedArguments(
  input: unknown,
  sources: readonly TaintSource[],
  minLength = DEFAULT_MIN_VERBATIM_LENGTH,
): FlaggedArgument[] {
  const flagged: FlaggedArgument[] = [];
  if (sources.length === 0) return flagged;
  const finder = new ValueFinder(sources, minLength);
  walk(input, '', 0, finder, flagged);
  return flagged;
}

/** A leaf's place, value and whether it was flagged on its own (for the joined check of its container). */
interface Leaf {
  readonly path: string;
  readonly value: string | number;
  readonly flagged: boolean;
}

function walk(
  value: unknown,
  path: string,
  depth: number,
  finder: ValueFinder,
  flagged: FlaggedArgument[],
): Leaf | undefined {
  if (depth > 64) return undefined;
  if (typeof value === 'string' || typeof value === 'number') {
    const flag = finder.find(path, value);
    if (flag !== undefined) flagged.push(flag);
    return { path, value, flagged: flag !== undefined };
  }
  if (value === null || typeof value !== 'object') return undefined;
  const leaves: Leaf[] = [];
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  for (const [key, item] of entries) {
    const leaf = walk(item, `${path}/${escapePointer(key)}`, depth + 1, finder, flagged);
    if (leaf !== undefined) leaves.push(leaf);
  }
  if (leaves.length >= 2 && leaves.some((leaf) => !leaf.flagged)) flagged.push(...finder.joined(path, leaves));
  return undefined;
}

/** Consecutive leaves of one container that are looked at together, at most. */
const MAX_JOINED = 16;
/** Leaves of one container that the joined check reads (a huge array is not scanned window by window). */
const MAX_JOINED_LEAVES = 64;

/**
 * Looks argument values up in the sources, verbatim first; each source's normalised and decoded forms are
 * made once, on the first value that needs them (a gate asks for every value of a call).
 */
class ValueFinder {
  readonly #sources: readonly TaintSource[];
  readonly #minLength: number;

  constructor(sources: readonly TaintSource[], minLength: number) {
    this.#sources = sources;
    this.#minLength = minLength;
  }

  find(path: string, value: string | number): FlaggedArgument | undefined {
    const verbatim = this.#where((source) => occursVerbatim(value, source.text, this.#minLength));
    if (verbatim.length > 0) return { path, value, foundIn: verbatim };
    if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
    const text = String(value);
    // A number keeps its sign and decimal point: only its grouping may differ (`9 800`, "9,800.00").
    const numeric = typeof value === 'number' || NUMERIC.test(text);
    const token = numeric ? normaliseDigits(text.trim()) : '';
    const key = numeric ? '' : normaliseForMatch(text);
    const inForms = (normalised: NormalisedText): boolean =>
      numeric ? occursAsToken(token, normalised.digits) : this.#inForms(key, normalised);
    const normalised = this.#where((source) => inForms(forms(source).plain));
    if (normalised.length > 0) return { path, value, foundIn: normalised, match: 'normalised' };
    if (!numeric) {
      for (const form of decodedForms(text)) {
        const decoded = form.text.trim();
        const found = this.#where((source) => this.#occurs(decoded, source.text, forms(source).plain));
        if (found.length > 0) return { path, value, foundIn: found, match: 'decoded', decoded };
      }
    }
    // The source holds an encoding of the value (the attacker encoded it, the model decoded it).
    const inDecoded = this.#where((source) => {
      const { decoded } = forms(source);
      if (decoded === undefined) return false;
      return (
        inForms(decoded) || (!numeric && text.trim().length >= this.#minLength && decoded.text.includes(text.trim()))
      );
    });
    if (inDecoded.length > 0) return { path, value, foundIn: inDecoded, match: 'decoded' };
    return undefined;
  }

  /** The maximal runs of consecutive leaves that are found together and not each on their own. */
  joined(path: string, leaves: readonly Leaf[]): FlaggedArgument[] {
    const read = leaves.slice(0, MAX_JOINED_LEAVES);
    const found: { from: number; to: number; value: string; foundIn: TaintSourceRef[] }[] = [];
    for (let from = 0; from < read.length - 1; from += 1) {
      let value = String((read[from] as Leaf).value);
      let anyUnflagged = !(read[from] as Leaf).flagged;
      for (let to = from + 1; to < Math.min(read.length, from + MAX_JOINED); to += 1) {
        const leaf = read[to] as Leaf;
        value += String(leaf.value);
        anyUnflagged ||= !leaf.flagged;
        if (!anyUnflagged) continue;
        const key = normaliseForMatch(value);
        const foundIn = this.#where((source) => this.#inForms(key, forms(source).plain));
        if (foundIn.length > 0) found.push({ from, to, value, foundIn });
      }
    }
    const maximal = found.filter(
      (run) => !found.some((other) => other !== run && other.from <= run.from && other.to >= run.to),
    );
    return maximal.map((run) => ({
      path,
      value: run.value,
      foundIn: run.foundIn,
      match: 'joined' as const,
      parts: read.slice(run.from, run.to + 1).map((leaf) => leaf.path),
    }));
  }

  #where(test: (source: TaintSource) => boolean): TaintSourceRef[] {
    return this.#sources.filter(test).map(refOf);
  }

  /** A text found in a source's text verbatim, or in its normalised forms. */
  #occurs(text: string, raw: string, normalised: NormalisedText): boolean {
    if (text.length >= this.#minLength && raw.includes(text)) return true;
    return this.#inForms(normaliseForMatch(text), normalised);
  }

  /** A normalised value in a normalised text: digits as a whole token, anything else long enough as a substring. */
  #inForms(key: string, normalised: NormalisedText): boolean {
    if (key === '') return false;
    if (DIGITS.test(key)) return occursAsToken(key, normalised.digits);
    return key.length >= this.#minLength && normalised.key.includes(key);
  }
}

const DIGITS = /^[0-9]+$/;
/** A string that is a number, however its digits are grouped (`9 800`, `-54.20`, `1,234.5`). */
const NUMERIC = /^\s*[+-]?[0-9][0-9\s'’_,.\u00a0\u2009\u202f]*\s*$/;

/** A text in the forms it is searched in once normalised. */
interface NormalisedText {
  readonly text: string;
  readonly key: string;
  readonly digits: string;
}

/** A source's text normalised, and what its encoded runs decode to, normalised too. */
interface SourceForms {
  readonly plain: NormalisedText;
  readonly decoded: NormalisedText | undefined;
}

/** Made once per source (its object is the run's own, kept for the run: see `RunProvenance`). */
const formsBySource = new WeakMap<TaintSource, SourceForms>();

function forms(source: TaintSource): SourceForms {
  let made = formsBySource.get(source);
  if (made === undefined) {
    const decoded = decodedForms(source.text, MAX_SOURCE_DECODINGS).map((form) => form.text);
    made = {
      plain: normalisedText(source.text),
      decoded: decoded.length === 0 ? undefined : normalisedText(decoded.join('\n')),
    };
    formsBySource.set(source, made);
  }
  return made;
}

/** Encoded runs of one source that are decoded, at most. */
const MAX_SOURCE_DECODINGS = 256;

function normalisedText(text: string): NormalisedText {
  return { text, key: normaliseForMatch(text), digits: normaliseDigits(text) };
}

function occursVerbatim(value: string | number, text: string, minLength: number): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && occursAsToken(String(value), text);
  const trimmed = value.trim();
  if (DIGITS.test(trimmed)) return occursAsToken(trimmed, text);
  return trimmed.length >= minLength && text.includes(trimmed);
}

/**
 * A numeric token not glued to other digits, letters or a decimal part: `100` is in "pay 100 now" and in
 * "100.00" (a decimal part of zeros is the same amount), not in "1000", "A100" or "100.5".
 */
function occursAsToken(token: string, text: string): boolean {
  let from = text.indexOf(token);
  while (from !== -1) {
    const before = text[from - 1];
    const end = from + token.length;
    const boundedBefore =
      before === undefined || !/[0-9A-Za-z.]/.test(before) || (before === '.' && !/[0-9]/.test(text[from - 2] ?? ''));
    if (boundedBefore && boundedAfter(text, end)) return true;
    from = text.indexOf(token, from + 1);
  }
  return false;
}

function boundedAfter(text: string, end: number): boolean {
  const after = text[end];
  if (after === undefined) return true;
  if (/[0-9A-Za-z]/.test(after)) return false;
  if (after !== '.' && after !== ',') return true;
  // A decimal part: only zeros keep it the same number ("100.00"); a separator not followed by a digit ends it.
  let index = end + 1;
  if (!/[0-9]/.test(text[index] ?? '')) return true;
  while (text[index] === '0') index += 1;
  return !/[0-9A-Za-z]/.test(text[index] ?? '');
}
