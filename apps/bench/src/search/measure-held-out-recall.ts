import { createToolSearchIndex, type ToolSearchFilter, type ToolSearchHit } from '@toolcircuit/core';
import { createNameMatchIndex } from './name-match-search.js';
import { type SearchSet, searchSets } from './search-sets.js';
import { CATALOGUE_SIZES, type SizedSet, sizedSet } from './sized-catalogue.js';

export const HELD_OUT_KS = [1, 5, 10] as const;
type K = (typeof HELD_OUT_KS)[number];

/** One set at one catalogue size. */
export interface HeldOutRow {
  readonly label: string;
  readonly source: string;
  readonly style: string;
  readonly split: 'tuning' | 'test';
  readonly size: number;
  readonly questions: number;
  /** Searches made (several per question when the set searches one step at a time). */
  readonly queries: number;
  /** (question, ground-truth tool) pairs. */
  readonly pairs: number;
  /** Share of pairs whose tool is among the first k results (of any of the question's queries). */
  readonly recall: Readonly<Record<K, number>>;
  /** recall@5 with the search restricted to the ground truth's namespace (questions with one namespace). */
  readonly scopedRecall5: number | undefined;
  readonly scopedPairs: number;
  /**
   * The most recall@5 any ranking could reach with these searches: a question with g tools and q searches
   * can have at most min(g, 5 × q) of them among the results (pairs, share).
   */
  readonly ceiling5: number;
  /** Share of pairs no search of the question matches at any depth: no word in common with the tool. */
  readonly unreachable: number;
  /** recall@5 of the name-match baseline. */
  readonly nameMatchRecall5: number;
  readonly refusedGroundTruth: number;
}

type Search = (query: string, limit: number, filter?: ToolSearchFilter) => readonly ToolSearchHit[];

/** Recall of one sized set through a search function (the catalogue's own, unless another is given). */
export function recallOf(sized: SizedSet, search?: Search): HeldOutRow {
  const toolSearch = sized.catalogue.toolSearch;
  const searchWith: Search = search ?? ((query, limit, filter) => toolSearch?.search(query, limit, filter) ?? []);
  const names = createNameMatchIndex(sized.tools);
  // The catalogue's search loads at most 10 tools; what no search reaches at any depth needs the whole ranking.
  const whole = createToolSearchIndex(sized.tools);
  const deepest = Math.max(...HELD_OUT_KS);
  let pairs = 0;
  let queries = 0;
  const found = HELD_OUT_KS.map(() => 0);
  let nameFound = 0;
  let scopedPairs = 0;
  let scopedFound = 0;
  let reachable5 = 0;
  let unreachable = 0;
  const rankIn = (lists: readonly (readonly string[])[], name: string) => {
    let best = -1;
    for (const list of lists) {
      const rank = list.indexOf(name);
      if (rank >= 0 && (best < 0 || rank < best)) best = rank;
    }
    return best;
  };
  for (const question of sized.questions) {
    queries += question.queries.length;
    const ranked = question.queries.map((query) => searchWith(query, deepest).map((hit) => hit.name));
    const named = question.queries.map((query) => names.search(query, 5).map((hit) => hit.name));
    const scope = question.namespaces.length === 1 ? question.namespaces[0] : undefined;
    const scoped =
      scope === undefined
        ? undefined
        : question.queries.map((query) => searchWith(query, 5, { namespace: scope }).map((hit) => hit.name));
    reachable5 += Math.min(question.groundTruth.length, 5 * question.queries.length);
    const everything = question.queries.map((query) => whole.search(query, sized.tools.length).map((hit) => hit.name));
    for (const name of question.groundTruth) {
      pairs += 1;
      if (rankIn(everything, name) < 0) unreachable += 1;
      const rank = rankIn(ranked, name);
      HELD_OUT_KS.forEach((k, position) => {
        if (rank >= 0 && rank < k) found[position] = (found[position] ?? 0) + 1;
      });
      if (rankIn(named, name) >= 0) nameFound += 1;
      if (scoped !== undefined) {
        scopedPairs += 1;
        if (rankIn(scoped, name) >= 0) scopedFound += 1;
      }
    }
  }
  const share = (count: number, total: number) => (total === 0 ? 0 : count / total);
  return {
    label: sized.set.label,
    source: sized.set.source,
    style: sized.set.style,
    split: sized.set.split,
    size: sized.size,
    questions: sized.questions.length,
    queries,
    pairs,
    recall: Object.fromEntries(HELD_OUT_KS.map((k, index) => [k, share(found[index] ?? 0, pairs)])) as Record<
      K,
      number
    >,
    scopedRecall5: scopedPairs === 0 ? undefined : share(scopedFound, scopedPairs),
    ceiling5: share(reachable5, pairs),
    unreachable: share(unreachable, pairs),
    scopedPairs,
    nameMatchRecall5: share(nameFound, pairs),
    refusedGroundTruth: sized.refusedGroundTruth,
  };
}

/** Every set at every catalogue size (or the given ones), test and tuning alike; the report keeps them apart. */
export function measureHeldOutRecall(
  options: { readonly sizes?: readonly number[]; readonly sets?: readonly SearchSet[] } = {},
): HeldOutRow[] {
  const rows: HeldOutRow[] = [];
  for (const set of options.sets ?? searchSets()) {
    for (const size of options.sizes ?? CATALOGUE_SIZES) rows.push(recallOf(sizedSet(set, size)));
  }
  return rows;
}
