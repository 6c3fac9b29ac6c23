import { stem, wordsOf } from './tokenize.js';

/** One field of a document, weighted: a word in a tool's name says more than one in its description. */
export interface SearchField {
  readonly text: string;
  readonly weight: number;
}

export interface SearchDocument {
  readonly id: string;
  readonly fields: readonly SearchField[];
}

export interface SearchHit {
  readonly id: string;
  readonly score: number;
}

/** How the index ranks; every number was chosen on the tuning sets only (apps/bench, tool search). */
export interface Bm25Tuning {
  /** What repeating a word adds (BM25's k1). */
  readonly k1: number;
  /** How much a long field is discounted (BM25's b). */
  readonly b: number;
  /**
   * How much a document that matches few of the query's terms is damped: its score is multiplied by
   * (matched terms / query terms) to this power. 0 turns it off; a single rare word matching a long,
   * unrelated description then stops outranking a tool that matches most of the request.
   */
  readonly coordination: number;
  /**
   * The score factor of a document that only one word of a query of three words or more matches: one rare
   * word ("onto", "checked") found in a long, unrelated description is weak evidence. 1 turns it off.
   */
  readonly singleTermDamping: number;
  /** The weight of a term found by splitting a compound ("geolocation" → "location"), relative to the word. */
  readonly compoundWeight: number;
  /** The weight of a vocabulary word a query word only begins or ends ("elastic" → "elasticsearch"). */
  readonly affixWeight: number;
}

export const DEFAULT_BM25_TUNING: Bm25Tuning = {
  k1: 2,
  b: 0.9,
  coordination: 0,
  singleTermDamping: 0.75,
  compoundWeight: 0.5,
  affixWeight: 0.75,
};

/** Parts shorter than this are not split off a compound nor matched as a prefix or suffix. */
const MIN_PART = 3;
const MIN_AFFIX_QUERY = 4;
const MAX_AFFIX_EXPANSIONS = 6;

/** A query term: the index's term id and how much of a match it counts for. */
interface QueryTerm {
  readonly id: number;
  readonly weight: number;
  /** The query word it stands for (an expanded word counts for the word it came from). */
  readonly slot: number;
}

/**
 * BM25F over documents of weighted fields: each field's term frequency is normalised by that field's length
 * against its average, weighted, summed, then saturated once, so a term found in several fields of one
 * document counts once, and more for the heavier fields. Compounds meet their parts both ways: a word of
 * the index made of two other words of the index is indexed under its parts too (at `compoundWeight`), and
 * a query word the index does not know is split the same way, or else matched to the index words it begins
 * or ends. In memory, built once, no dependency; postings in typed arrays so a query over thousands of
 * tools stays well under a millisecond of arithmetic.
 */
export class Bm25Index {
  readonly #ids: string[];
  readonly #termIds = new Map<string, number>();
  /** Surface word → the term it is indexed under (for splitting and affix matching of query words). */
  readonly #surface = new Map<string, string>();
  #sortedWords: string[] = [];
  #reversedWords: string[] = [];
  #postingDocs: Int32Array[] = [];
  #postingWeights: Float64Array[] = [];
  #idf: Float64Array = new Float64Array(0);
  readonly #tuning: Bm25Tuning;
  readonly #scores: Float64Array;
  readonly #matched: Float64Array;

  constructor(documents: readonly SearchDocument[], tuning: Bm25Tuning = DEFAULT_BM25_TUNING) {
    this.#tuning = tuning;
    this.#ids = documents.map((document) => document.id);
    const split = documents.map((document) => document.fields.map((field) => wordsOf(field.text)));
    for (const fields of split) {
      for (const words of fields) {
        for (const word of words) if (!this.#surface.has(word)) this.#surface.set(word, stem(word));
      }
    }
    // Per word of the index: its term id, then the term ids of its compound parts.
    const postings: { docs: number[]; weights: number[] }[] = [];
    const termsOfWord = new Map<string, number[]>();
    for (const [word, term] of this.#surface) {
      const ids = [this.#termId(term, postings)];
      for (const part of this.#split(word) ?? []) ids.push(this.#termId(part, postings));
      termsOfWord.set(word, ids);
    }
    const fieldCount = Math.max(0, ...documents.map((document) => document.fields.length));
    const averages = Array.from({ length: fieldCount }, (_, index) => {
      let total = 0;
      for (const fields of split) total += fields[index]?.length ?? 0;
      return Math.max(1, total / Math.max(1, split.length));
    });
    const k1 = tuning.k1;
    const scratch = new Float64Array(postings.length);
    const touched: number[] = [];
    for (const [position, document] of documents.entries()) {
      for (const [index, field] of document.fields.entries()) {
        const words = split[position]?.[index] ?? [];
        if (words.length === 0) continue;
        const unit = field.weight / (1 - tuning.b + (tuning.b * words.length) / (averages[index] ?? 1));
        const partUnit = unit * tuning.compoundWeight;
        for (const word of words) {
          const ids = termsOfWord.get(word) as number[];
          for (let part = 0; part < ids.length; part += 1) {
            const id = ids[part] as number;
            if (scratch[id] === 0) touched.push(id);
            scratch[id] = (scratch[id] as number) + (part === 0 ? unit : partUnit);
          }
        }
      }
      for (const id of touched) {
        const weight = scratch[id] as number;
        scratch[id] = 0;
        if (weight <= 0) continue;
        const list = postings[id] as { docs: number[]; weights: number[] };
        list.docs.push(position);
        // Saturated once here, so a query only adds idf × this.
        list.weights.push((weight * (k1 + 1)) / (weight + k1));
      }
      touched.length = 0;
    }
    this.#postingDocs = postings.map((list) => Int32Array.from(list.docs));
    this.#postingWeights = postings.map((list) => Float64Array.from(list.weights));
    const total = documents.length;
    this.#idf = Float64Array.from(postings, (list) =>
      Math.log(1 + (total - list.docs.length + 0.5) / (list.docs.length + 0.5)),
    );
    this.#sortedWords = [...this.#surface.keys()].filter((word) => word.length >= MIN_AFFIX_QUERY).sort();
    this.#reversedWords = this.#sortedWords.map(reverse).sort();
    this.#scores = new Float64Array(total);
    this.#matched = new Float64Array(total);
  }

  get size(): number {
    return this.#ids.length;
  }

  /**
   * The best `limit` documents for a free-text query, best first; ties keep the documents' order.
   * `boost` multiplies a document's score (1 leaves it); a document it gives 0 is left out.
   */
  search(query: string, limit: number, boost?: (position: number) => number): SearchHit[] {
    const terms = this.#queryTerms(query);
    if (terms.length === 0 || limit <= 0) return [];
    const slots = new Set(terms.map((term) => term.slot)).size;
    const scores = this.#scores;
    const matched = this.#matched;
    const touched: number[] = [];
    const add = (position: number, value: number, weight: number) => {
      if (scores[position] === 0 && matched[position] === 0) touched.push(position);
      scores[position] = (scores[position] as number) + value;
      matched[position] = (matched[position] as number) + weight;
    };
    // Each query word counts once per document: through its term, or the best of its expansions.
    for (const group of groupBySlot(terms)) {
      if (group.length === 1) {
        const term = group[0] as QueryTerm;
        const docs = this.#postingDocs[term.id] as Int32Array;
        const weights = this.#postingWeights[term.id] as Float64Array;
        const idf = (this.#idf[term.id] ?? 0) * term.weight;
        for (let index = 0; index < docs.length; index += 1) {
          add(docs[index] as number, idf * (weights[index] as number), term.weight);
        }
        continue;
      }
      const best = new Map<number, { value: number; weight: number }>();
      for (const term of group) {
        const docs = this.#postingDocs[term.id] as Int32Array;
        const weights = this.#postingWeights[term.id] as Float64Array;
        const idf = (this.#idf[term.id] ?? 0) * term.weight;
        for (let index = 0; index < docs.length; index += 1) {
          const position = docs[index] as number;
          const value = idf * (weights[index] as number);
          if (value > (best.get(position)?.value ?? 0)) best.set(position, { value, weight: term.weight });
        }
      }
      for (const [position, { value, weight }] of best) add(position, value, weight);
    }
    const hits: { position: number; score: number }[] = [];
    const coordination = this.#tuning.coordination;
    const damping = this.#tuning.singleTermDamping;
    for (const position of touched) {
      let score = scores[position] as number;
      if (coordination > 0) score *= ((matched[position] as number) / slots) ** coordination;
      if (slots >= 3 && (matched[position] as number) <= 1) score *= damping;
      const factor = boost === undefined ? 1 : boost(position);
      scores[position] = 0;
      matched[position] = 0;
      if (factor > 0 && score > 0) hits.push({ position, score: score * factor });
    }
    hits.sort((left, right) => right.score - left.score || left.position - right.position);
    return hits.slice(0, limit).map(({ position, score }) => ({ id: this.#ids[position] as string, score }));
  }

  /** The document's position of an id (for a boost or a filter), or -1. */
  positionOf(id: string): number {
    return this.#ids.indexOf(id);
  }

  #termId(term: string, postings: { docs: number[]; weights: number[] }[]): number {
    let id = this.#termIds.get(term);
    if (id === undefined) {
      id = postings.length;
      this.#termIds.set(term, id);
      postings.push({ docs: [], weights: [] });
    }
    return id;
  }

  /** The terms of the most balanced split of a word into two known words, if there is one. */
  #split(word: string): string[] | undefined {
    if (word.length < 2 * MIN_PART + 1 || !/^[a-z]+$/.test(word)) return undefined;
    let best: string[] | undefined;
    let bestShorter = 0;
    for (let cut = MIN_PART; cut <= word.length - MIN_PART; cut += 1) {
      const shorter = Math.min(cut, word.length - cut);
      if (shorter <= bestShorter) continue;
      const left = this.#surface.get(word.slice(0, cut));
      if (left === undefined) continue;
      const right = this.#surface.get(word.slice(cut));
      if (right !== undefined) {
        best = [left, right];
        bestShorter = shorter;
      }
    }
    return best;
  }

  /** The query's terms the index knows; unknown words split into known ones or matched by affix. */
  #queryTerms(query: string): QueryTerm[] {
    const terms: QueryTerm[] = [];
    const seen = new Set<string>();
    let slot = 0;
    for (const word of wordsOf(query)) {
      const term = stem(word);
      if (seen.has(term)) continue;
      seen.add(term);
      const id = this.#termIds.get(term);
      if (id !== undefined) {
        terms.push({ id, weight: 1, slot });
        slot += 1;
        continue;
      }
      const expanded = this.#expand(word);
      if (expanded.length === 0) continue;
      for (const term of expanded) terms.push({ ...term, slot });
      slot += 1;
    }
    return terms;
  }

  #expand(word: string): { id: number; weight: number }[] {
    const split = this.#split(word);
    if (split !== undefined) {
      return split.flatMap((term) => {
        const id = this.#termIds.get(term);
        return id === undefined ? [] : [{ id, weight: this.#tuning.compoundWeight }];
      });
    }
    if (word.length < MIN_AFFIX_QUERY || !/^[a-z]+$/.test(word)) return [];
    const found = new Set<string>();
    for (const candidate of withPrefix(this.#sortedWords, word)) found.add(candidate);
    for (const candidate of withPrefix(this.#reversedWords, reverse(word))) found.add(reverse(candidate));
    const expansions: { id: number; weight: number }[] = [];
    for (const candidate of [...found].sort((a, b) => a.length - b.length).slice(0, MAX_AFFIX_EXPANSIONS)) {
      const id = this.#termIds.get(this.#surface.get(candidate) ?? '');
      if (id !== undefined) expansions.push({ id, weight: this.#tuning.affixWeight });
    }
    return expansions;
  }
}

function groupBySlot(terms: readonly QueryTerm[]): QueryTerm[][] {
  const groups = new Map<number, QueryTerm[]>();
  for (const term of terms) groups.set(term.slot, [...(groups.get(term.slot) ?? []), term]);
  return [...groups.values()];
}

const reverse = (word: string): string => [...word].reverse().join('');

/** The words of a sorted list that start with `prefix` (and are longer than it), by binary search. */
function withPrefix(sorted: readonly string[], prefix: string): string[] {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle] as string) < prefix) low = middle + 1;
    else high = middle;
  }
  const found: string[] = [];
  for (let index = low; index < sorted.length && found.length < 4 * MAX_AFFIX_EXPANSIONS; index += 1) {
    const word = sorted[index] as string;
    if (!word.startsWith(prefix)) break;
    if (word.length > prefix.length + MIN_PART - 1) found.push(word);
  }
  return found;
}
