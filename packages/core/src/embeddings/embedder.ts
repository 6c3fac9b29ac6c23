/** What a text is embedded as: a search query, or a document (here, a tool) to be found. */
export type EmbeddingPurpose = 'query' | 'document';

/**
 * Any provider's embedding endpoint, supplied by the application: texts in, one vector per text out, in
 * order. Adapters exist for OpenAI (`createOpenAIEmbedder`, @toolcircuit/openai), Gemini
 * (`createGeminiEmbedder`, @toolcircuit/google) and Voyage-style APIs (`createVoyageEmbedder`,
 * @toolcircuit/anthropic); any object of this shape works.
 */
export interface Embedder {
  /**
   * Names the model and its settings (e.g. "openai:text-embedding-3-small:512"). Part of every cached
   * vector's key: vectors of another model are never mixed in.
   */
  readonly id: string;
  /** How many texts one call may carry (the endpoint's batch limit); absent: all at once. */
  readonly maxBatch?: number;
  embed(
    texts: readonly string[],
    purpose: EmbeddingPurpose,
    signal?: AbortSignal,
  ): Promise<readonly (readonly number[])[]>;
}
