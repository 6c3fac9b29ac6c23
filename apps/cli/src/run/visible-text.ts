/**
 * Text as the human must see it on a terminal: what an attacker wrote can hold characters that hide or
 * disguise it there (escape sequences, C1 controls, bidi overrides, zero-width characters), so each of them
 * is written as its `\u{…}` code instead. Everything else is left as it is.
 */
export function visibleText(text: string): string {
  return text.replace(HIDING, (char) =>
    char === '\n' || char === '\t' ? char : `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`,
  );
}

/** JSON of a value, indented, with {@link visibleText}'s escapes (JSON already escapes C0 controls). */
export function visibleJson(value: unknown, indent?: number): string {
  return visibleText(JSON.stringify(value, null, indent) ?? 'null');
}

// C0 and C1 controls (but line feeds and tabs, which lay the text out), DEL, line and paragraph separators, and every default-ignorable code point (zero-width
// spaces and joiners, bidi controls, soft hyphens, variation selectors, tags).
const HIDING = /[\p{Cc}\u2028\u2029\p{Default_Ignorable_Code_Point}]/gu;
