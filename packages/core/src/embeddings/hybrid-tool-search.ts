import { EmbeddingResponseError } from '../errors/embedding-response-error.js';
import type { SearchableTool, ToolSearchFilter, ToolSearchHit, ToolSearchIndex } from '../search/tool-search-index.js';
import type { Embedder, EmbeddingPurpose } from './embedder.js';
import { DEFAULT_RANK_FUSION, fuseRankings, type RankFusion } from './fuse-rankings.js';
import { toolEmbeddingText, toolVectorKey } from './tool-embedding-text.js';
import { InMemoryToolVectorCache, type ToolVectorCache } from './tool-vector-cache.js';

/** Hybrid retrieval: the lexical search fused with an embedding search whose embedder the application gives. */
export interface ToolEmbeddingsOptions {
  readonly embedder: Embedder;
  /** Where tool vectors are kept (default: in memory, for this process). */
  readonly cache?: ToolVectorCache;
  /** How the two rankings are fused (default: reciprocal rank, k = 60). */
  readonly fusion?: RankFusion;
  /** How many results of each ranking are fused (default 50). */
  readonly depth?: number;
  /**
   * Told when the embedder fails or answers with unusable vectors; that search then answers with the
   * lexical ranking alone, and the next one tries the embedder again.
   */
  readonly onError?: (error: unknown) => void;
}

export interface HybridToolSearch {
  search(
    query: string,
    limit: number,
    filter?: ToolSearchFilter,
    signal?: AbortSignal,
  ): Promise<readonly ToolSearchHit[]>;
  /** Embeds (or reads from the cache) every tool's vector; the first search does it otherwise. */
  prepare(signal?: AbortSignal): Promise<void>;
}

const DEFAULT_DEPTH = 50;

/**
 * The lexical index fused with cosine similarity between the query's vector and each tool's. Tool vectors
 * come from the cache when their key (embedder id + digest of the tool's definition) is there, else are
 * embedded in batches and stored; the query is embedded per search.
 */
export function createHybridToolSearch(
  tools: readonly SearchableTool[],
  lexical: ToolSearchIndex,
  options: ToolEmbeddingsOptions,
): HybridToolSearch {
  const { embedder } = options;
  const cache = options.cache ?? new InMemoryToolVectorCache();
  const fusion = options.fusion ?? DEFAULT_RANK_FUSION;
  const depth = Math.max(1, Math.floor(options.depth ?? DEFAULT_DEPTH));
  let vectors: Promise<Float32Array[]> | undefined;

  const toolVectors = (signal?: AbortSignal): Promise<Float32Array[]> => {
    vectors ??= loadToolVectors(tools, embedder, cache, signal).catch((error: unknown) => {
      vectors = undefined;
      throw error;
    });
    return vectors;
  };

  return {
    prepare: async (signal) => {
      await toolVectors(signal);
    },
    search: async (query, limit, filter, signal) => {
      const lexicalHits = lexical.search(query, Math.max(limit, depth), filter);
      let semantic: ToolSearchHit[];
      try {
        // One request after the other: the tools' vectors (cached after the first search), then the query's.
        const all = await toolVectors(signal);
        const [queryVector] = await embedChecked(embedder, [query], 'query', signal);
        semantic = nearest(embedder.id, normalised(queryVector as Float32Array), all, tools, filter, depth);
      } catch (error) {
        if (signal?.aborted === true) throw error;
        options.onError?.(error);
        return lexicalHits.slice(0, limit);
      }
      return fuseRankings(lexicalHits, semantic, fusion, limit);
    },
  };
}

async function loadToolVectors(
  tools: readonly SearchableTool[],
  embedder: Embedder,
  cache: ToolVectorCache,
  signal: AbortSignal | undefined,
): Promise<Float32Array[]> {
  const keys = tools.map((tool) => toolVectorKey(embedder.id, tool));
  const cached = await cache.get(keys);
  const result: (Float32Array | undefined)[] = [...cached];
  const missing = tools.flatMap((_, index) => (result[index] === undefined ? [index] : []));
  const batch = Math.max(1, embedder.maxBatch ?? missing.length);
  for (let start = 0; start < missing.length; start += batch) {
    const slice = missing.slice(start, start + batch);
    const embedded = await embedChecked(
      embedder,
      slice.map((index) => toolEmbeddingText(tools[index] as SearchableTool)),
      'document',
      signal,
    );
    const entries = slice.map((index, position) => {
      const vector = normalised(embedded[position] as Float32Array);
      result[index] = vector;
      return { key: keys[index] as string, vector };
    });
    await cache.set(entries);
  }
  const dimensions = new Set(result.map((vector) => vector?.length));
  if (dimensions.size > 1) {
    throw new EmbeddingResponseError(
      embedder.id,
      `cached and new vectors have ${[...dimensions].join(' and ')} dimensions`,
    );
  }
  return result as Float32Array[];
}

/** The embedder's answer, checked: one finite, non-empty vector per text, all of one length. */
async function embedChecked(
  embedder: Embedder,
  texts: readonly string[],
  purpose: EmbeddingPurpose,
  signal: AbortSignal | undefined,
): Promise<Float32Array[]> {
  const vectors = await embedder.embed(texts, purpose, signal);
  if (!Array.isArray(vectors) || vectors.length !== texts.length) {
    throw new EmbeddingResponseError(
      embedder.id,
      `${Array.isArray(vectors) ? vectors.length : 'no list of'} vectors for ${texts.length} texts`,
    );
  }
  const length = vectors[0]?.length ?? 0;
  return vectors.map((vector, index) => {
    if (vector.length === 0 || vector.length !== length) {
      throw new EmbeddingResponseError(
        embedder.id,
        `vector ${index} has ${vector.length} dimensions, vector 0 has ${length}`,
      );
    }
    const copy = Float32Array.from(vector);
    if (!copy.every(Number.isFinite))
      throw new EmbeddingResponseError(embedder.id, `vector ${index} holds a non-finite value`);
    return copy;
  });
}

function normalised(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/** The tools nearest the query by cosine similarity (vectors are normalised), within the filter. */
function nearest(
  embedderId: string,
  query: Float32Array,
  vectors: readonly Float32Array[],
  tools: readonly SearchableTool[],
  filter: ToolSearchFilter | undefined,
  depth: number,
): ToolSearchHit[] {
  if (vectors[0] !== undefined && vectors[0].length !== query.length) {
    throw new EmbeddingResponseError(
      embedderId,
      `the query has ${query.length} dimensions, the tools ${vectors[0].length}`,
    );
  }
  const wanted = filter?.namespace?.toLowerCase();
  const hits: ToolSearchHit[] = [];
  vectors.forEach((vector, index) => {
    const tool = tools[index] as SearchableTool;
    if (wanted !== undefined && tool.namespace?.toLowerCase() !== wanted) return;
    let score = 0;
    for (let dimension = 0; dimension < vector.length; dimension += 1) {
      score += (vector[dimension] as number) * (query[dimension] as number);
    }
    hits.push({ name: tool.name, score });
  });
  return hits.sort((left, right) => right.score - left.score).slice(0, depth);
}
