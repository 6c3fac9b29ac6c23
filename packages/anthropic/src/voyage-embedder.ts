import type { Embedder } from '@toolcircuit/core';
import { invalidResponseError, ProviderError, retryAfterMs } from '@toolcircuit/core/provider';
import { AnthropicConfigurationError } from './anthropic-configuration-error.js';

/** Where the key is looked up by default. */
export const VOYAGE_API_KEY_ENV = 'VOYAGE_API_KEY';
const PROVIDER = 'voyage';

export interface VoyageEmbedderOptions {
  /** Embedding model id, e.g. `voyage-3.5` or `voyage-3.5-lite`. */
  readonly model: string;
  /** API root without `/v1` (default `https://api.voyageai.com`); any server with the same `/v1/embeddings`. */
  readonly baseURL?: string;
  /** Default: the value of `apiKeyEnv` in the environment. */
  readonly apiKey?: string;
  readonly apiKeyEnv?: string;
  /** Shortened vectors (`output_dimension`), for the models that take it. */
  readonly dimensions?: number;
  /** Texts per request (default 128; the endpoint takes up to 1,000). */
  readonly maxBatch?: number;
  readonly fetch?: typeof fetch;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * An {@link Embedder} over a Voyage-style embeddings API — `POST {baseURL}/v1/embeddings` with
 * `{ input, model, input_type: "query" | "document" }`, answered by `{ data: [{ embedding, index }] }` — the
 * embedding service Anthropic's documentation points to (Anthropic has no embedding endpoint). Plain
 * `fetch`: there is no official SDK for JavaScript. An error answer becomes a `ProviderError`.
 */
export function createVoyageEmbedder(options: VoyageEmbedderOptions): Embedder {
  if (options.model.trim() === '') {
    throw new AnthropicConfigurationError('invalid_option', 'model', 'voyage: embedding model id is empty.');
  }
  const envName = options.apiKeyEnv ?? VOYAGE_API_KEY_ENV;
  const apiKey = options.apiKey ?? (options.env ?? process.env)[envName];
  if (apiKey === undefined || apiKey.trim() === '') {
    throw new AnthropicConfigurationError(
      'missing_api_key',
      envName,
      `voyage: no API key. Set ${envName} in the environment, or pass apiKey.`,
    );
  }
  const url = `${(options.baseURL ?? 'https://api.voyageai.com').replace(/\/+$/, '')}/v1/embeddings`;
  const send = options.fetch ?? fetch;
  return {
    id: `${PROVIDER}:${options.model}${options.dimensions === undefined ? '' : `:${options.dimensions}`}`,
    maxBatch: Math.max(1, options.maxBatch ?? 128),
    async embed(texts, purpose, signal) {
      let response: Response;
      try {
        response = await send(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
          body: JSON.stringify({
            input: texts,
            model: options.model,
            input_type: purpose,
            ...(options.dimensions === undefined ? {} : { output_dimension: options.dimensions }),
          }),
          ...(signal === undefined ? {} : { signal }),
        });
      } catch (error) {
        const aborted = signal?.aborted === true;
        throw new ProviderError({
          provider: PROVIDER,
          code: aborted ? 'aborted' : 'connection',
          message: aborted ? 'the embedding request was aborted' : `could not reach ${url}`,
          retryable: !aborted,
          cause: error,
        });
      }
      const text = await response.text();
      if (!response.ok) throw errorOf(response, text);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw invalidResponseError(PROVIDER, {
          contentType: response.headers.get('content-type'),
          body: text.slice(0, 512),
        });
      }
      const data = (body as { data?: unknown }).data;
      if (!Array.isArray(data)) {
        throw invalidResponseError(PROVIDER, {
          contentType: response.headers.get('content-type'),
          body: text.slice(0, 512),
        });
      }
      return (data as { embedding: number[]; index: number }[])
        .slice()
        .sort((left, right) => left.index - right.index)
        .map((entry) => entry.embedding);
    },
  };
}

function errorOf(response: Response, text: string): ProviderError {
  const status = response.status;
  let detail = text.slice(0, 300);
  try {
    const parsed = JSON.parse(text) as { detail?: unknown; error?: { message?: unknown } };
    if (typeof parsed.detail === 'string') detail = parsed.detail;
    else if (typeof parsed.error?.message === 'string') detail = parsed.error.message;
  } catch {
    // Not JSON: the text itself says what went wrong.
  }
  const code =
    status === 401
      ? 'authentication'
      : status === 403
        ? 'permission'
        : status === 404
          ? 'not_found'
          : status === 429
            ? 'rate_limited'
            : status >= 500
              ? 'server_error'
              : 'invalid_request';
  const delay = retryAfterMs(response.headers);
  return new ProviderError({
    provider: PROVIDER,
    code,
    status,
    message: `HTTP ${status}: ${detail}`,
    retryable: status === 429 || status >= 500,
    ...(delay === undefined ? {} : { retryAfterMs: delay }),
  });
}
