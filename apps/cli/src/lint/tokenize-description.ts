import { stemWord } from './stem-word.js';

// Function words, and the words nearly every tool description uses to talk about itself. Leaving them in
// would make any two descriptions look alike; TF-IDF also down-weights them, but only within one catalogue.
const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each either else etc few for from further ' +
    'had has have having he her here hers him his how i if in into is it its itself just may me might more ' +
    'most must my no nor not of off on once one only or other our ours out over own per same shall she should ' +
    'so some such than that the their theirs them then there these they this those through to too under ' +
    'until up upon us very via was we were what when where which while who whom whose why will with within ' +
    'without would yet you your yours ' +
    // Words about the tool itself rather than what it does.
    'tool tools function functions api use used using uses allows allow given specified provided'
  ).split(' '),
);

/** Content words of a description, lower-cased and stemmed, in order (repeats kept: they are term counts). */
export function tokenizeDescription(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const tokens: string[] = [];
  for (const word of words) {
    if (word.length < 3 || STOP_WORDS.has(word) || /^\d+$/.test(word)) continue;
    tokens.push(stemWord(word));
  }
  return tokens;
}
