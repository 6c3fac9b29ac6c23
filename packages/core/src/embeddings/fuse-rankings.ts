import type { ToolSearchHit } from '../search/tool-search-index.js';

/**
 * How two rankings become one. `reciprocal-rank` (the default) adds 1 / (k + rank) per list, so it needs
 * no comparable scores and a tool high in either list rises; `weighted` adds each list's scores scaled to
 * 0..1 by its best, `lexicalWeight` for the lexical list and 1 − that for the embedding one.
 */
export type RankFusion =
  | { readonly kind: 'reciprocal-rank'; readonly k?: number }
  | { readonly kind: 'weighted'; readonly lexicalWeight: number };

export const DEFAULT_RANK_FUSION: RankFusion = { kind: 'reciprocal-rank', k: 60 };

/** The fused ranking of a lexical and an embedding ranking, best first; ties keep the lexical order. */
export function fuseRankings(
  lexical: readonly ToolSearchHit[],
  semantic: readonly ToolSearchHit[],
  fusion: RankFusion,
  limit: number,
): ToolSearchHit[] {
  const scores = new Map<string, number>();
  const add = (hits: readonly ToolSearchHit[], weight: number) => {
    const best = Math.max(0, ...hits.map((hit) => hit.score));
    hits.forEach((hit, rank) => {
      const value =
        fusion.kind === 'reciprocal-rank'
          ? 1 / ((fusion.k ?? 60) + rank + 1)
          : best > 0
            ? (weight * Math.max(0, hit.score)) / best
            : 0;
      scores.set(hit.name, (scores.get(hit.name) ?? 0) + value);
    });
  };
  const lexicalWeight = fusion.kind === 'weighted' ? Math.min(1, Math.max(0, fusion.lexicalWeight)) : 1;
  add(lexical, lexicalWeight);
  add(semantic, fusion.kind === 'weighted' ? 1 - lexicalWeight : 1);
  const order = new Map<string, number>();
  for (const hit of [...lexical, ...semantic]) if (!order.has(hit.name)) order.set(hit.name, order.size);
  return [...scores]
    .sort((left, right) => right[1] - left[1] || (order.get(left[0]) ?? 0) - (order.get(right[0]) ?? 0))
    .slice(0, Math.max(0, limit))
    .map(([name, score]) => ({ name, score }));
}
