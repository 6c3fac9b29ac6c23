// What JSON.stringify escapes in a string: `"`, `\`, control characters, and (well-formed JSON.stringify)
// lone surrogates; a paired surrogate matches too and simply takes the JSON.stringify path.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `JSON.stringify(text)`, cheaper for the common string that needs no escape: the canonical writers quote
 * every key and string value of every call input.
 */
export function quoteJsonString(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}
