/**
 * Words no tool is told apart by. Short on purpose: "get", "list", "create" and the like stay, since a
 * tool's verb is often what tells two tools of one service apart.
 */
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'can',
  'do',
  'does',
  'for',
  'from',
  'given',
  'has',
  'have',
  'how',
  'i',
  'if',
  'in',
  'into',
  'is',
  'it',
  'its',
  'me',
  'my',
  'of',
  'on',
  'or',
  'please',
  'should',
  'so',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'this',
  'to',
  'use',
  'used',
  'using',
  'was',
  'we',
  'what',
  'when',
  'where',
  'which',
  'who',
  'will',
  'with',
  'would',
  'you',
  'your',
]);

// Between runs of letters or digits: the separators of identifiers (`_`, `.`, `-`, `/`) and all punctuation.
const SEPARATORS = /[^\p{L}\p{N}]+/u;
// Inside one run: camelCase and PascalCase humps, acronyms ("HTTPServer" → HTTP, Server) and digits apart.
const HUMPS = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|[\p{L}\p{N}]+/gu;

/**
 * The search terms of a text: identifiers split on snake_case, kebab-case, dots and camelCase, lower-cased,
 * stop words dropped, each word reduced to a rough stem so that "calculates", "calculated" and
 * "calculating" meet. A camelCase identifier is kept whole as well ("getweather" next to "get" and
 * "weather"), so that name written in a query still ranks its tool first.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const run of text.split(SEPARATORS)) {
    if (run === '') continue;
    // Most runs are plain lower-case words: no hump to find.
    if (LOWER_WORD.test(run)) {
      addTerm(terms, run);
      continue;
    }
    const humps = run.match(HUMPS) ?? [run];
    for (const hump of humps) addTerm(terms, hump.toLowerCase());
    if (humps.length > 1) terms.push(run.toLowerCase());
  }
  return terms;
}

const LOWER_WORD = /^[a-z]+$/;
// Catalogues repeat a small vocabulary: each word is stemmed once per process (bounded, then left as is).
const stems = new Map<string, string>();
const MAX_CACHED_STEMS = 50_000;

function addTerm(terms: string[], word: string): void {
  if (STOP_WORDS.has(word)) return;
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = stem(word);
    if (stems.size < MAX_CACHED_STEMS) stems.set(word, stemmed);
  }
  terms.push(stemmed);
}

/**
 * A light suffix stripper (plural, past, gerund, agent and a few derivations). Not Porter: it only has to
 * make a query's word and a description's word meet, and a wrong cut costs little when both sides get it.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  for (const [suffix, replacement, minimum] of SUFFIXES) {
    if (word.length - suffix.length >= minimum && word.endsWith(suffix)) {
      return word.slice(0, word.length - suffix.length) + replacement;
    }
  }
  return word;
}

// [suffix, replacement, shortest stem left]; the first that applies wins, so longer suffixes come first.
const SUFFIXES: readonly (readonly [string, string, number])[] = [
  ['ational', 'ate', 3],
  ['ization', 'ize', 3],
  ['ations', 'ate', 3],
  ['ation', 'ate', 3],
  ['ments', '', 4],
  ['ment', '', 4],
  ['ness', '', 4],
  ['ings', '', 3],
  ['ing', '', 3],
  ['ies', 'y', 2],
  ['ied', 'y', 2],
  ['ers', '', 3],
  ['er', '', 3],
  ['ed', '', 3],
  ['es', '', 4],
  ['ly', '', 4],
  ['s', '', 3],
  ['e', '', 3],
];
