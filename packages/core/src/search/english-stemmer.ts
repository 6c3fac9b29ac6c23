/**
 * The Porter2 ("Snowball English") stemmer of Martin Porter, written from the algorithm's published
 * description (snowballstem.org/algorithms/english/stemmer.html). It maps "connections", "connected" and
 * "connecting" to "connect", "locations" to "locat" and "baggages" to "baggag", so a request's word and a
 * tool's word meet whatever their inflection. Lower-case ASCII words only: anything else is returned as is.
 */
export function stemEnglish(input: string): string {
  if (input.length <= 2 || !/^[a-z']+$/.test(input)) return input;
  const exception = EXCEPTIONS.get(input);
  if (exception !== undefined) return exception;
  let word = input.replace(/^'/, '');
  if (word.length <= 2) return word;
  // y as a consonant: at the start, or after a vowel.
  word = word.replace(/^y/, 'Y').replace(/([aeiouy])y/g, '$1Y');
  const r1 = regionOne(word);
  const r2 = regionAfter(word, r1);
  word = step0(word);
  word = step1a(word);
  if (INVARIANT_AFTER_1A.has(word)) return word;
  word = step1b(word, r1);
  word = step1c(word);
  word = step2(word, r1);
  word = step3(word, r1, r2);
  word = step4(word, r2);
  word = step5(word, r1, r2);
  return word.replace(/Y/g, 'y');
}

const EXCEPTIONS = new Map([
  ['skis', 'ski'],
  ['skies', 'sky'],
  ['dying', 'die'],
  ['lying', 'lie'],
  ['tying', 'tie'],
  ['idly', 'idl'],
  ['gently', 'gentl'],
  ['ugly', 'ugli'],
  ['early', 'earli'],
  ['only', 'onli'],
  ['singly', 'singl'],
  ['sky', 'sky'],
  ['news', 'news'],
  ['howe', 'howe'],
  ['atlas', 'atlas'],
  ['cosmos', 'cosmos'],
  ['bias', 'bias'],
  ['andes', 'andes'],
]);
const INVARIANT_AFTER_1A = new Set([
  'inning',
  'outing',
  'canning',
  'herring',
  'earring',
  'proceed',
  'exceed',
  'succeed',
]);

const isVowel = (character: string | undefined): boolean =>
  character === 'a' ||
  character === 'e' ||
  character === 'i' ||
  character === 'o' ||
  character === 'u' ||
  character === 'y';

/** R1: after the first non-vowel that follows a vowel (three words have a fixed R1). */
function regionOne(word: string): number {
  for (const prefix of ['gener', 'commun', 'arsen']) if (word.startsWith(prefix)) return prefix.length;
  return regionAfter(word, 0);
}

function regionAfter(word: string, start: number): number {
  for (let index = start + 1; index < word.length; index += 1) {
    if (!isVowel(word[index]) && isVowel(word[index - 1])) return index + 1;
  }
  return word.length;
}

/** A short syllable ending at `end` (exclusive). */
function endsShortSyllable(word: string, end: number): boolean {
  if (end === 2) return isVowel(word[0]) && !isVowel(word[1]);
  if (end < 3) return false;
  const last = word[end - 1];
  return (
    !isVowel(word[end - 3]) && isVowel(word[end - 2]) && !isVowel(last) && last !== 'w' && last !== 'x' && last !== 'Y'
  );
}

const isShort = (word: string, r1: number): boolean => r1 >= word.length && endsShortSyllable(word, word.length);
const hasVowel = (text: string): boolean => /[aeiouy]/.test(text);

/** The longest of `suffixes` the word ends with (the list is searched longest first). */
function longestSuffix(word: string, suffixes: readonly string[]): string | undefined {
  for (const suffix of suffixes) if (word.endsWith(suffix)) return suffix;
  return undefined;
}
const byLength = (list: readonly string[]): readonly string[] => [...list].sort((a, b) => b.length - a.length);

function step0(word: string): string {
  const suffix = longestSuffix(word, ["'s'", "'s", "'"]);
  return suffix === undefined ? word : word.slice(0, -suffix.length);
}

function step1a(word: string): string {
  if (word.endsWith('sses')) return `${word.slice(0, -4)}ss`;
  if (word.endsWith('ied') || word.endsWith('ies')) return word.length > 4 ? word.slice(0, -2) : word.slice(0, -1);
  if (word.endsWith('us') || word.endsWith('ss')) return word;
  // A final s goes when a vowel comes earlier than the letter just before it ("gaps" → "gap", not "gas").
  if (word.endsWith('s') && hasVowel(word.slice(0, -2))) return word.slice(0, -1);
  return word;
}

const STEP_1B = byLength(['eed', 'eedly', 'ed', 'edly', 'ing', 'ingly']);
const DOUBLES = new Set(['bb', 'dd', 'ff', 'gg', 'mm', 'nn', 'pp', 'rr', 'tt']);

function step1b(word: string, r1: number): string {
  const suffix = longestSuffix(word, STEP_1B);
  if (suffix === undefined) return word;
  const stem = word.slice(0, -suffix.length);
  if (suffix === 'eed' || suffix === 'eedly') return stem.length >= r1 ? `${stem}ee` : word;
  if (!hasVowel(stem)) return word;
  if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return `${stem}e`;
  if (DOUBLES.has(stem.slice(-2))) return stem.slice(0, -1);
  if (isShort(stem, r1)) return `${stem}e`;
  return stem;
}

function step1c(word: string): string {
  const last = word[word.length - 1];
  if ((last === 'y' || last === 'Y') && word.length > 2 && !isVowel(word[word.length - 2])) {
    return `${word.slice(0, -1)}i`;
  }
  return word;
}

const STEP_2: ReadonlyMap<string, string> = new Map([
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['abli', 'able'],
  ['entli', 'ent'],
  ['izer', 'ize'],
  ['ization', 'ize'],
  ['ational', 'ate'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['aliti', 'al'],
  ['alli', 'al'],
  ['fulness', 'ful'],
  ['ousli', 'ous'],
  ['ousness', 'ous'],
  ['iveness', 'ive'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['bli', 'ble'],
  ['ogi', 'og'],
  ['fulli', 'ful'],
  ['lessli', 'less'],
  ['li', ''],
]);
const STEP_2_SUFFIXES = byLength([...STEP_2.keys()]);
const LI_ENDINGS = new Set(['c', 'd', 'e', 'g', 'h', 'k', 'm', 'n', 'r', 't']);

function step2(word: string, r1: number): string {
  const suffix = longestSuffix(word, STEP_2_SUFFIXES);
  if (suffix === undefined) return word;
  const stem = word.slice(0, -suffix.length);
  if (stem.length < r1) return word;
  if (suffix === 'ogi' && !stem.endsWith('l')) return word;
  if (suffix === 'li' && !LI_ENDINGS.has(stem[stem.length - 1] ?? '')) return word;
  return stem + (STEP_2.get(suffix) ?? '');
}

const STEP_3: ReadonlyMap<string, string> = new Map([
  ['tional', 'tion'],
  ['ational', 'ate'],
  ['alize', 'al'],
  ['icate', 'ic'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
  ['ative', ''],
]);
const STEP_3_SUFFIXES = byLength([...STEP_3.keys()]);

function step3(word: string, r1: number, r2: number): string {
  const suffix = longestSuffix(word, STEP_3_SUFFIXES);
  if (suffix === undefined) return word;
  const stem = word.slice(0, -suffix.length);
  if (stem.length < r1) return word;
  if (suffix === 'ative' && stem.length < r2) return word;
  return stem + (STEP_3.get(suffix) ?? '');
}

const STEP_4_SUFFIXES = byLength([
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
  'ion',
]);

function step4(word: string, r2: number): string {
  const suffix = longestSuffix(word, STEP_4_SUFFIXES);
  if (suffix === undefined) return word;
  const stem = word.slice(0, -suffix.length);
  if (stem.length < r2) return word;
  if (suffix === 'ion' && !stem.endsWith('s') && !stem.endsWith('t')) return word;
  return stem;
}

function step5(word: string, r1: number, r2: number): string {
  const stem = word.slice(0, -1);
  if (word.endsWith('e')) {
    if (stem.length >= r2 || (stem.length >= r1 && !endsShortSyllable(stem, stem.length))) return stem;
    return word;
  }
  if (word.endsWith('l') && stem.length >= r2 && stem.endsWith('l')) return stem;
  return word;
}
