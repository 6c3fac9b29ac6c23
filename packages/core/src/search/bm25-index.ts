import { tokenize } from './tokenize.js';

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

/** BM25 constants: k1 bounds what repeating a word adds; b how much a long field is discounted. */
const K1 = 1.2;
const B = 0.75;

interface IndexedDocument {
  readonly id: string;
  /** Per term: the field-weighted, length-normalised frequency (BM25F's pseudo term frequency). */
  readonly weights: Map<string, number>;
}

/**
 * BM25F over documents of weighted fields: each field's term frequency is normalised by that field's length
 * against its average, weighted, summed, then saturated once, so a term found in several fields of one
 * document counts once, and more for the heavier fields. In memory, built once, no dependency.
 */
export class Bm25Index {
  readonly #documents: IndexedDocument[] = [];
  readonly #postings = new Map<string, number[]>();
  readonly #idf = new Map<string, number>();

  constructor(documents: readonly SearchDocument[]) {
    const tokenised = documents.map((document) => document.fields.map((field) => tokenize(field.text)));
    const fieldCount = Math.max(0, ...documents.map((document) => document.fields.length));
    const averages = Array.from({ length: fieldCount }, (_, index) => {
      const lengths = tokenised.map((fields) => fields[index]?.length ?? 0);
      return Math.max(1, lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, lengths.length));
    });
    for (const [position, document] of documents.entries()) {
      const weights = new Map<string, number>();
      for (const [index, field] of document.fields.entries()) {
        const terms = tokenised[position]?.[index] ?? [];
        const norm = 1 - B + (B * terms.length) / (averages[index] ?? 1);
        for (const term of terms) weights.set(term, (weights.get(term) ?? 0) + field.weight / norm);
      }
      for (const term of weights.keys()) {
        const list = this.#postings.get(term);
        if (list === undefined) this.#postings.set(term, [position]);
        else list.push(position);
      }
      this.#documents.push({ id: document.id, weights });
    }
    const total = this.#documents.length;
    for (const [term, list] of this.#postings) {
      this.#idf.set(term, Math.log(1 + (total - list.length + 0.5) / (list.length + 0.5)));
    }
  }

  get size(): number {
    return this.#documents.length;
  }

  /** The best `limit` documents for a free-text query, best first; ties keep the documents' order. */
  search(query: string, limit: number): SearchHit[] {
    const scores = new Map<number, number>();
    for (const term of new Set(tokenize(query))) {
      const list = this.#postings.get(term);
      if (list === undefined) continue;
      const idf = this.#idf.get(term) ?? 0;
      for (const position of list) {
        const weight = this.#documents[position]?.weights.get(term) ?? 0;
        scores.set(position, (scores.get(position) ?? 0) + (idf * weight * (K1 + 1)) / (weight + K1));
      }
    }
    return [...scores]
      .sort((left, right) => right[1] - left[1] || left[0] - right[0])
      .slice(0, Math.max(0, limit))
      .map(([position, score]) => ({ id: (this.#documents[position] as IndexedDocument).id, score }));
  }
}
