import { tokenizeDescription } from './tokenize-description.js';

/** Default cosine threshold; see apps/cli/README.md ("How overlap is scored") for how it was chosen. */
export const DEFAULT_OVERLAP_THRESHOLD = 0.7;
/** A pair must also share at least this many distinct content terms: one shared word is not confusion. */
export const MIN_SHARED_TERMS = 2;

export interface DescriptionOverlap {
  readonly first: string;
  readonly second: string;
  /** TF-IDF cosine similarity of the two descriptions, 0…1. */
  readonly score: number;
  /** The stemmed terms that contribute most to the score, strongest first (at most 6). */
  readonly sharedTerms: readonly string[];
}

/**
 * Pairs of tools whose descriptions a model could confuse: TF-IDF vectors of stemmed content words
 * (IDF over this catalogue, smoothed: ln((1 + N) / (1 + df)) + 1) compared by cosine. Terms every tool
 * uses weigh little, so "Get the weather" and "Get the stock price" do not meet on "get".
 */
export function findDescriptionOverlaps(
  tools: readonly { readonly name: string; readonly description: string }[],
  threshold = DEFAULT_OVERLAP_THRESHOLD,
): DescriptionOverlap[] {
  const documents = tools.map((tool) => termCounts(tokenizeDescription(tool.description)));
  const documentFrequency = new Map<string, number>();
  for (const counts of documents) {
    for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const total = documents.length;
  const vectors = documents.map((counts) => {
    const weights = new Map<string, number>();
    let norm = 0;
    for (const [term, count] of counts) {
      const weight = count * (Math.log((1 + total) / (1 + (documentFrequency.get(term) ?? 0))) + 1);
      weights.set(term, weight);
      norm += weight * weight;
    }
    return { weights, norm: Math.sqrt(norm) };
  });

  const overlaps: DescriptionOverlap[] = [];
  for (let i = 0; i < vectors.length; i += 1) {
    const a = vectors[i];
    const toolA = tools[i];
    if (a === undefined || toolA === undefined || a.norm === 0) continue;
    for (let j = i + 1; j < vectors.length; j += 1) {
      const b = vectors[j];
      const toolB = tools[j];
      if (b === undefined || toolB === undefined || b.norm === 0) continue;
      const [small, large] = a.weights.size <= b.weights.size ? [a, b] : [b, a];
      let dot = 0;
      const shared: [string, number][] = [];
      for (const [term, weight] of small.weights) {
        const other = large.weights.get(term);
        if (other === undefined) continue;
        dot += weight * other;
        shared.push([term, weight * other]);
      }
      if (shared.length < MIN_SHARED_TERMS) continue;
      const score = dot / (a.norm * b.norm);
      if (score < threshold) continue;
      shared.sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
      overlaps.push({
        first: toolA.name,
        second: toolB.name,
        score: Math.round(score * 1000) / 1000,
        sharedTerms: shared.slice(0, 6).map(([term]) => term),
      });
    }
  }
  return overlaps;
}

function termCounts(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}
