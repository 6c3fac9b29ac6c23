// createGeminiEmbedder through @google/genai against the replay server (synthetic responses in the batch
// embedding endpoint's documented shape, labelled so): one request per batch, the retrieval task type per
// purpose, and errors as ProviderErrors.
import { type JsonObject, ProviderError } from '@toolcircuit/core';
import type { Interaction } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createGeminiEmbedder } from '../src/index.js';
import { syntheticCassette } from './support/gemini-cassette.js';
import { TEST_API_KEY, withReplay } from './support/replay.js';

const MODEL = 'gemini-embedding-001';
const PATH = `/v1beta/models/${MODEL}:batchEmbedContents`;

const answer = (json: JsonObject, status = 200): Interaction => ({
  request: { method: 'POST', path: PATH },
  response: { status, headers: { 'content-type': 'application/json' }, body: { kind: 'json', json } },
});

describe('createGeminiEmbedder', () => {
  it('embeds a batch with the retrieval task type of its purpose and the asked dimensions', async () => {
    await withReplay(
      syntheticCassette('batch embeddings: two documents, then one query', [
        answer({ embeddings: [{ values: [0.1, 0.2] }, { values: [0.3, 0.4] }] }),
        answer({ embeddings: [{ values: [0.5, 0.6] }] }),
      ]),
      async (server) => {
        const embedder = createGeminiEmbedder({
          model: MODEL,
          dimensions: 2,
          apiKey: TEST_API_KEY,
          baseURL: server.url,
          env: {},
        });
        expect(embedder.id).toBe('google:gemini-embedding-001:2');
        expect(await embedder.embed(['tool one', 'tool two'], 'document')).toEqual([
          [0.1, 0.2],
          [0.3, 0.4],
        ]);
        expect(await embedder.embed(['find a tool'], 'query')).toEqual([[0.5, 0.6]]);
        server.assertDone();
        const requests = (index: number) => {
          const body = server.received[index]?.body as { requests: JsonObject[] };
          return body.requests;
        };
        expect(requests(0)).toHaveLength(2);
        expect(requests(0)[0]).toMatchObject({
          content: { parts: [{ text: 'tool one' }] },
          taskType: 'RETRIEVAL_DOCUMENT',
          outputDimensionality: 2,
        });
        expect(requests(1)[0]).toMatchObject({
          content: { parts: [{ text: 'find a tool' }] },
          taskType: 'RETRIEVAL_QUERY',
        });
      },
    );
  });

  it('turns an error answer into a ProviderError', async () => {
    await withReplay(
      syntheticCassette('batch embeddings: bad key', [
        answer({ error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT' } }, 400),
      ]),
      async (server) => {
        const embedder = createGeminiEmbedder({ model: MODEL, apiKey: TEST_API_KEY, baseURL: server.url, env: {} });
        const error = await embedder.embed(['x'], 'query').catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ProviderError);
        expect(error).toMatchObject({ status: 400, retryable: false });
      },
    );
  });
});
