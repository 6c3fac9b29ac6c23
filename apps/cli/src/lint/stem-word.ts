/**
 * A light English stemmer after Porter's step 1 (plurals, -ed, -ing, with his "add back an e" rule) plus
 * -ly and -ation: enough to make "files", "filed" and "filing" meet without a dictionary. Words of four
 * letters or fewer are left alone; the output is a matching key, not always a real word.
 */
export function stemWord(word: string): string {
  if (word.length <= 4) return word;
  let stem = word;
  if (stem.endsWith('sses')) stem = stem.slice(0, -2);
  else if (stem.endsWith('ies')) stem = `${stem.slice(0, -3)}y`;
  else if (/(ch|sh|x|z)es$/.test(stem)) stem = stem.slice(0, -2);
  else if (stem.endsWith('s') && !/(ss|us|is)$/.test(stem)) stem = stem.slice(0, -1);

  if (stem.endsWith('ation')) return `${stem.slice(0, -5)}ate`;
  for (const suffix of ['ing', 'ed']) {
    if (!stem.endsWith(suffix)) continue;
    const base = stem.slice(0, -suffix.length);
    if (base.length < 2 || !/[aeiouy]/.test(base)) break;
    // "running" → "runn" → "run", but keep ll/ss/zz, which belong to the word ("called" → "call").
    if (/([^aeiouylsz])\1$/.test(base)) return base.slice(0, -1);
    // Porter: a short consonant-vowel-consonant stem lost an e ("based" → "base", "rated" → "rate").
    if (measure(base) === 1 && endsCvc(base)) return `${base}e`;
    return base;
  }
  if (stem.endsWith('ly') && stem.length > 5) return stem.slice(0, -2);
  return stem;
}

function isVowel(word: string, index: number): boolean {
  const character = word[index] ?? '';
  if ('aeiou'.includes(character)) return true;
  // y is a vowel after a consonant ("try"), a consonant otherwise ("yes", "play").
  return character === 'y' && index > 0 && !isVowel(word, index - 1);
}

/** Porter's m: the number of vowel-consonant sequences in the word. */
function measure(word: string): number {
  let count = 0;
  for (let index = 1; index < word.length; index += 1) {
    if (!isVowel(word, index) && isVowel(word, index - 1)) count += 1;
  }
  return count;
}

function endsCvc(word: string): boolean {
  const n = word.length;
  if (n < 3) return false;
  const last = word[n - 1] ?? '';
  return !isVowel(word, n - 3) && isVowel(word, n - 2) && !isVowel(word, n - 1) && !'wxy'.includes(last);
}
