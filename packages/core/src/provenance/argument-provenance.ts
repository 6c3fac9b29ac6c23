import type { FlaggedArgument } from './confirmation-request.js';
import { refOf, type TaintSource } from './taint-source.js';

export const DEFAULT_MIN_VERBATIM_LENGTH = 4;

/**
 * Which argument values appear verbatim in untrusted output. "Verbatim" means:
 * - a string of at least `minLength` characters (after trimming) that occurs as a substring of a source's
 *   text: an IBAN, an address, a path or a sentence copied from an email. Shorter strings ("EUR", "yes")
 *   occur everywhere and would flag everything.
 * - a number, or a string of digits, that occurs as a whole token: `100` is found in "pay 100 now" and in
 *   `"amount": 100`, not in "1000" or "100.5".
 * Object keys are not arguments' values and are not flagged.
 */
export function flaggedArguments(
  input: unknown,
  sources: readonly TaintSource[],
  minLength = DEFAULT_MIN_VERBATIM_LENGTH,
): FlaggedArgument[] {
  const flagged: FlaggedArgument[] = [];
  if (sources.length === 0) return flagged;
  walk(input, '', 0, (path, value) => {
    const foundIn = sources.filter((source) => occursIn(value, source.text, minLength)).map(refOf);
    if (foundIn.length > 0) flagged.push({ path, value, foundIn });
  });
  return flagged;
}

function walk(value: unknown, path: string, depth: number, visit: (path: string, value: string | number) => void) {
  if (depth > 64) return;
  if (typeof value === 'string' || typeof value === 'number') visit(path, value);
  else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) walk(item, `${path}/${index}`, depth + 1, visit);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) walk(item, `${path}/${escapePointer(key)}`, depth + 1, visit);
  }
}

function occursIn(value: string | number, text: string, minLength: number): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && occursAsToken(String(value), text);
  const trimmed = value.trim();
  if (/^[0-9]+$/.test(trimmed)) return occursAsToken(trimmed, text);
  return trimmed.length >= minLength && text.includes(trimmed);
}

/** A numeric token not glued to other digits, letters or a decimal part. */
function occursAsToken(token: string, text: string): boolean {
  let from = text.indexOf(token);
  while (from !== -1) {
    const before = text[from - 1];
    const after = text[from + token.length];
    const afterNext = text[from + token.length + 1];
    const boundedBefore =
      before === undefined || !/[0-9A-Za-z.]/.test(before) || (before === '.' && !/[0-9]/.test(text[from - 2] ?? ''));
    const continuesDecimal = (after === '.' || after === ',') && afterNext !== undefined && /[0-9]/.test(afterNext);
    const boundedAfter = after === undefined || (!/[0-9A-Za-z]/.test(after) && !continuesDecimal);
    if (boundedBefore && boundedAfter) return true;
    from = text.indexOf(token, from + 1);
  }
  return false;
}

function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
