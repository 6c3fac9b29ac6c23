import { ToolcircuitError } from './toolcircuit-error.js';

/**
 * An embedder answered with something the search cannot use: another number of vectors than texts, vectors
 * of different lengths, or values that are not finite numbers. The embedder (or its model setting) is what
 * to fix; the search falls back to its lexical ranking meanwhile.
 */
export class EmbeddingResponseError extends ToolcircuitError {
  readonly kind = 'provider' as const;
  readonly code = 'embedding_response' as const;
  readonly embedderId: string;

  constructor(embedderId: string, problem: string) {
    super(`The embedder "${embedderId}" answered with unusable vectors: ${problem}.`);
    this.embedderId = embedderId;
  }
}
