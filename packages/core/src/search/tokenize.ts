import { stemEnglish } from './english-stemmer.js';
import { STOP_WORDS } from './stop-words.js';

// Between runs of letters or digits: the separators of identifiers (`_`, `.`, `-`, `/`) and all punctuation.
const SEPARATORS = /[^\p{L}\p{N}]+/u;
// Inside one run: camelCase and PascalCase humps, acronyms ("HTTPServer" → HTTP, Server) and digits apart.
const HUMPS = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|[\p{L}\p{N}]+/gu;
const LOWER_WORD = /^[a-z]+$/;
const DIGITS = /^\p{N}+$/u;

/**
 * The words of a text, lower-cased: identifiers split on snake_case, kebab-case, dots and camelCase, stop
 * words and single letters dropped. A run that splits in several parts is also kept whole ("getweather",
 * "base64", "v2"), so a name written in a query still finds its tool, and a version or a model number stays
 * one word. A bare number ("10", "2024") is dropped: a request's quantities and dates name no tool, and
 * would match example values at random.
 */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const run of text.split(SEPARATORS)) {
    if (run === '') continue;
    // Most runs are plain lower-case words: no hump to find.
    if (LOWER_WORD.test(run)) {
      if (run.length > 1 && !STOP_WORDS.has(run)) words.push(run);
      continue;
    }
    if (DIGITS.test(run)) continue;
    const humps = run.match(HUMPS) ?? [run];
    for (const hump of humps) {
      if (DIGITS.test(hump)) continue;
      const word = hump.toLowerCase();
      if (word.length > 1 && !STOP_WORDS.has(word)) words.push(word);
    }
    if (humps.length > 1) words.push(run.toLowerCase());
  }
  return words;
}

/** The search terms of a text: its words (see {@link wordsOf}), each reduced to its stem (Porter2). */
export function tokenize(text: string): string[] {
  return wordsOf(text).map(stem);
}

// Catalogues repeat a small vocabulary: each word is stemmed once per process (bounded, then left as is).
const stems = new Map<string, string>();
const MAX_CACHED_STEMS = 50_000;

/** A word's stem (Porter2 for lower-case English words; other words as they are), cached. */
export function stem(word: string): string {
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = stemEnglish(word);
    if (stems.size < MAX_CACHED_STEMS) stems.set(word, stemmed);
  }
  return stemmed;
}
