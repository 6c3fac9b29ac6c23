/**
 * How two texts are compared when the question is "was this value copied from that text, even if the model
 * re-wrote it?": both are brought to one form first. The argument flags use it (see `flaggedArguments`);
 * so can any policy that must say "the same value after normalisation". Comparing the normalised forms is
 * exact: a form never matches what the original texts would not match up to case, spacing, separators,
 * invisible characters and look-alike letters.
 *
 * The steps, in order:
 * 1. Unicode NFKC: full-width, mathematical, circled and other compatibility forms become plain letters
 *    and digits (`Ｐａｙ`, `𝐏𝐚𝐲` → `Pay`), ligatures split (`ﬁ` → `fi`).
 * 2. Invisible characters removed: zero-width spaces and joiners, soft hyphens, bidi controls, variation
 *    selectors, tags (every default-ignorable code point).
 * 3. Common look-alikes folded to the Latin letter they imitate: Cyrillic and Greek letters that look Latin
 *    (`раураl` with Cyrillic р, а, у), Latin small capitals, dotless i. Only letters that are near
 *    identical in common fonts: `0`/`O` and `1`/`l` stay apart.
 * 4. Case folded (`ß` → `ss`, `İ` → `i`).
 * 5. Everything but letters and digits removed: spaces, punctuation, symbols, combining marks, so re-spaced
 *    or re-punctuated values (`GB33 BUKB-2020`) compare equal to the compact ones.
 */
export function normaliseForMatch(text: string): string {
  const folded = foldLookalikes(withoutInvisibles(text.normalize('NFKC')));
  return folded.toUpperCase().toLowerCase().replace(NOT_LETTER_OR_DIGIT, '');
}

/**
 * Digits as one token however they were grouped: NFKC, invisible characters removed, and the grouping
 * separators between digits dropped (`9 800`, `9'800`, `9,800`, `9.800` → `9800`; `1,5` stays). Letters and
 * other separators stay, so a number can still be found as a whole token in the result.
 */
export function normaliseDigits(text: string): string {
  return withoutInvisibles(text.normalize('NFKC')).replace(DIGIT_GROUP_SPACE, '$1').replace(DIGIT_GROUP_MARK, '$1');
}

/** One reading of an encoded value. */
export interface DecodedForm {
  readonly encoding: 'base64' | 'url' | 'hex';
  readonly text: string;
}

/**
 * The readable texts an encoded value stands for: the whole value URL-decoded (`%40` → `@`), and every
 * base64 (or base64url) run of 6+ characters (4 bytes) and hex run of 8+ digits in it (or in its URL-decoded form)
 * that decodes to readable UTF-8 text. Runs that decode to bytes nobody reads (most words and numbers are
 * valid base64 or hex, and decode to binary) give nothing. At most `limit` forms, from the first
 * `MAX_DECODED_INPUT` characters.
 */
export function decodedForms(text: string, limit = 16): DecodedForm[] {
  const forms: DecodedForm[] = [];
  const input = text.length > MAX_DECODED_INPUT ? text.slice(0, MAX_DECODED_INPUT) : text;
  const add = (encoding: DecodedForm['encoding'], decoded: string | undefined): void => {
    if (decoded === undefined || forms.length >= limit) return;
    if (forms.some((form) => form.text === decoded)) return;
    forms.push({ encoding, text: decoded });
  };
  const urlDecoded = URL_ESCAPE.test(input) ? decodeUrl(input) : undefined;
  add('url', urlDecoded === input ? undefined : urlDecoded);
  for (const candidate of urlDecoded === undefined ? [input] : [input, urlDecoded]) {
    for (const run of candidate.match(BASE64_RUN) ?? []) add('base64', decodeBase64(run));
    for (const run of candidate.match(HEX_RUN) ?? []) add('hex', decodeHex(run));
  }
  return forms;
}

/** Longest text that is scanned for encoded runs: a value (or source) is not decoded past this. */
export const MAX_DECODED_INPUT = 65_536;

const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;
const INVISIBLE = /\p{Default_Ignorable_Code_Point}+/gu;
const DIGIT_GROUP_SPACE = /(\p{Nd})[\s'’_\u00a0\u2009\u202f](?=\p{Nd})/gu;
const DIGIT_GROUP_MARK = /(\p{Nd})[.,](?=\p{Nd}{3}(?!\p{Nd}))/gu;
const URL_ESCAPE = /%[0-9A-Fa-f]{2}/;
const URL_ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;
const BASE64_RUN = /[A-Za-z0-9+/_-]{6,}={0,2}/g;
const HEX_RUN = /(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){4,}(?![0-9A-Fa-f])/g;

function withoutInvisibles(text: string): string {
  return text.replace(INVISIBLE, '');
}

/**
 * Cyrillic, Greek, Armenian and small-capital letters that look like a Latin letter in common fonts, to that
 * letter (upper to upper, lower to lower: case is folded afterwards). After NFKC, which already maps
 * full-width, mathematical and other compatibility letters.
 */
// biome-ignore format: a table reads better in rows
const LOOKALIKES: Readonly<Record<string, string>> = {
  // Cyrillic capitals and small letters
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', У: 'Y', Х: 'X', Ѕ: 'S',
  І: 'I', Ј: 'J', Ԛ: 'Q', Ԝ: 'W', Ү: 'Y', Ӏ: 'I', Ѵ: 'V',
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', ѕ: 's', і: 'i', ј: 'j', ԁ: 'd', ԛ: 'q', ԝ: 'w',
  һ: 'h', ӏ: 'l', ү: 'y', ѵ: 'v', к: 'k',
  // Greek capitals and small letters
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y',
  Χ: 'X', α: 'a', ο: 'o', ρ: 'p', ι: 'i', κ: 'k', ν: 'v', υ: 'u', χ: 'x', γ: 'y',
  // Armenian
  օ: 'o', ս: 'u', հ: 'h', ո: 'n',
  // Latin look-alikes NFKC keeps: dotless i and j, script a and g, small capitals
  ı: 'i', ȷ: 'j', ɑ: 'a', ɡ: 'g', ɩ: 'i', ᴀ: 'a', ʙ: 'b', ᴄ: 'c', ᴅ: 'd', ᴇ: 'e', ɢ: 'g', ʜ: 'h', ɪ: 'i',
  ᴊ: 'j', ᴋ: 'k', ʟ: 'l', ᴍ: 'm', ɴ: 'n', ᴏ: 'o', ᴘ: 'p', ʀ: 'r', ꜱ: 's', ᴛ: 't', ᴜ: 'u', ᴠ: 'v', ᴡ: 'w',
  ʏ: 'y', ᴢ: 'z',
};

const LOOKALIKE = new RegExp(`[${Object.keys(LOOKALIKES).join('')}]`, 'gu');

function foldLookalikes(text: string): string {
  // Printable ASCII (nearly every argument) has none: no replace, no callback.
  if (!BEYOND_ASCII.test(text)) return text;
  return text.replace(LOOKALIKE, (letter) => LOOKALIKES[letter] ?? letter);
}

const BEYOND_ASCII = /[^ -~\t\n\r]/;

function decodeUrl(text: string): string {
  return text.replace(URL_ESCAPES, (escapes) => {
    try {
      return decodeURIComponent(escapes);
    } catch {
      // Not UTF-8 (`%E9` alone): left as written.
      return escapes;
    }
  });
}

function decodeBase64(run: string): string | undefined {
  const body = run.replace(/=+$/, '');
  if (body.length % 4 === 1) return undefined;
  return readable(Buffer.from(body.replaceAll('-', '+').replaceAll('_', '/'), 'base64'));
}

function decodeHex(run: string): string | undefined {
  return readable(Buffer.from(run, 'hex'));
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const UNREADABLE = /[\p{Cc}\p{Cn}\p{Co}\p{Cs}\ufffd]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The bytes as text when they are valid UTF-8 that a person could read; else `undefined`. */
function readable(bytes: Uint8Array): string | undefined {
  if (bytes.length < 4) return undefined;
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return undefined;
  }
  const visible = text.replace(/[\t\n\r]/g, ' ');
  if (UNREADABLE.test(visible) || !LETTER_OR_DIGIT.test(visible)) return undefined;
  return text;
}
