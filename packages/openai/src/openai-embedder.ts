import type { Embedder } from '@toolcircuit/core';
import type { OpenAI } from 'openai';
import { mapOpenAIError } from './openai-shared-map-error.js';
import {
  createOpenAIClient,
  type OpenAISharedModelOptions,
  providerNameOf,
  validateOpenAIOptions,
} from './openai-shared-options.js';

/** Options of {@link createOpenAIEmbedder}: the client options of the chat adapters, and the embedding model's. */
export interface OpenAIEmbedderOptions
  extends Pick<
    OpenAISharedModelOptions,
    'provider' | 'client' | 'apiKey' | 'apiKeyEnv' | 'baseURL' | 'maxRetries' | 'timeout' | 'fetch' | 'env'
  > {
  /** Embedding model id, e.g. `text-embedding-3-small`. */
  readonly model: string;
  /** Shortened vectors (`dimensions`, text-embedding-3 models); absent: the model's own length. */
  readonly dimensions?: number;
  /** Texts per request (the endpoint takes up to 2,048 inputs; default 256). */
  readonly maxBatch?: number;
}

/**
 * An {@link Embedder} over the OpenAI embeddings endpoint (`POST /v1/embeddings`), through the official
 * `openai` SDK; also any OpenAI-compatible server (`baseURL` + `provider`). The same vector serves queries
 * and tools (the endpoint has no query/document distinction). SDK errors become `ProviderError`s.
 */
export function createOpenAIEmbedder(options: OpenAIEmbedderOptions): Embedder {
  validateOpenAIOptions(options);
  const client: OpenAI = createOpenAIClient(options);
  const provider = providerNameOf(options);
  return {
    id: `${provider}:${options.model}${options.dimensions === undefined ? '' : `:${options.dimensions}`}`,
    maxBatch: Math.max(1, options.maxBatch ?? 256),
    async embed(texts, _purpose, signal) {
      try {
        const response = await client.embeddings.create(
          {
            model: options.model,
            input: [...texts],
            encoding_format: 'float',
            ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }),
          },
          signal === undefined ? {} : { signal },
        );
        // The endpoint says each vector's position; order by it rather than trusting the list's order.
        return [...response.data].sort((left, right) => left.index - right.index).map((entry) => entry.embedding);
      } catch (error) {
        throw mapOpenAIError(error, provider);
      }
    },
  };
}
