import { GoogleGenAI, type HttpOptions } from '@google/genai';
import type { Embedder } from '@toolcircuit/core';
import { GoogleConfigurationError } from './google-configuration-error.js';
import { GOOGLE_PROVIDER } from './google-metadata.js';
import { resolveGoogleApiKey } from './google-options.js';
import { guardedFetch } from './guarded-fetch.js';
import { mapGoogleError } from './map-google-error.js';

export interface GeminiEmbedderOptions {
  /** Embedding model id, e.g. `gemini-embedding-001`. */
  readonly model: string;
  /** Shortened vectors (`outputDimensionality`); absent: the model's own length. */
  readonly dimensions?: number;
  /** The API key. Default: `GEMINI_API_KEY`, then `GOOGLE_API_KEY`. Not needed when `client` is given. */
  readonly apiKey?: string;
  /** Root URL of the API, without the version; the SDK appends `/v1beta/models/…`. */
  readonly baseURL?: string;
  readonly timeout?: number;
  /** A configured `@google/genai` client; its own base URL, headers and key are used as they are. */
  readonly client?: GoogleGenAI;
  /** Texts per request (default 100, the batch endpoint's limit). */
  readonly maxBatch?: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * An {@link Embedder} over Gemini's embedding endpoint through the official `@google/genai` SDK
 * (`models.embedContent`, one batched request per call). Queries are embedded as `RETRIEVAL_QUERY`, tools as
 * `RETRIEVAL_DOCUMENT`, the task types Gemini's retrieval guide asks for. SDK errors become `ProviderError`s.
 */
export function createGeminiEmbedder(options: GeminiEmbedderOptions): Embedder {
  if (options.model.trim() === '') {
    throw new GoogleConfigurationError('invalid_option', 'model', 'google: embedding model id is empty.');
  }
  const client =
    options.client ?? new GoogleGenAI({ apiKey: resolveGoogleApiKey(options), httpOptions: httpOptionsOf(options) });
  return {
    id: `${GOOGLE_PROVIDER}:${options.model}${options.dimensions === undefined ? '' : `:${options.dimensions}`}`,
    maxBatch: Math.max(1, options.maxBatch ?? 100),
    async embed(texts, purpose, signal) {
      try {
        const response = await client.models.embedContent({
          model: options.model,
          contents: [...texts],
          config: {
            taskType: purpose === 'query' ? 'RETRIEVAL_QUERY' : 'RETRIEVAL_DOCUMENT',
            ...(options.dimensions === undefined ? {} : { outputDimensionality: options.dimensions }),
            ...(signal === undefined ? {} : { abortSignal: signal }),
          },
        });
        return (response.embeddings ?? []).map((embedding) => embedding.values ?? []);
      } catch (error) {
        throw mapGoogleError(error, signal);
      }
    },
  };
}

function httpOptionsOf(options: GeminiEmbedderOptions): HttpOptions {
  const httpOptions: HttpOptions = { fetch: guardedFetch };
  const baseUrl = options.baseURL?.replace(/\/+$/, '');
  if (baseUrl !== undefined) httpOptions.baseUrl = baseUrl;
  if (options.timeout !== undefined) httpOptions.timeout = options.timeout;
  return httpOptions;
}
