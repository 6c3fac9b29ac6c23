// createVoyageEmbedder (plain fetch, Voyage-style /v1/embeddings) against the replay server, with synthetic
// responses in the endpoint's documented shape, labelled so. The cassette's `protocol` is the nearest the
// format has ('openai-chat': the same `data[].embedding` shape); nothing else reads it.
import { type JsonObject, ProviderError } from '@toolcircuit/core';
import { type Cassette, type Interaction, startReplayServer } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { AnthropicConfigurationError, createVoyageEmbedder } from '../src/index.js';

const PATH = '/v1/embeddings';
const cassette = (note: string, interactions: Interaction[]): Cassette => ({
  format: 'toolcircuit-cassette/1',
  protocol: 'openai-chat',
  provenance: { kind: 'synthetic', note: `Synthetic (packages/anthropic tests, Voyage-style embeddings): ${note}` },
  interactions,
});
const answer = (json: JsonObject, status = 200, headers: Record<string, string> = {}): Interaction => ({
  request: { method: 'POST', path: PATH },
  response: { status, headers: { 'content-type': 'application/json', ...headers }, body: { kind: 'json', json } },
});

describe('createVoyageEmbedder', () => {
  it('posts the texts with their input type and returns the vectors in index order', async () => {
    const server = await startReplayServer(
      cassette('two documents, answered out of order', [
        answer({
          object: 'list',
          data: [
            { object: 'embedding', embedding: [0, 1], index: 1 },
            { object: 'embedding', embedding: [1, 0], index: 0 },
          ],
          model: 'voyage-3.5-lite',
          usage: { total_tokens: 6 },
        }),
      ]),
    );
    try {
      const embedder = createVoyageEmbedder({
        model: 'voyage-3.5-lite',
        apiKey: 'test-key-not-a-secret',
        baseURL: server.url,
        dimensions: 2,
      });
      expect(embedder.id).toBe('voyage:voyage-3.5-lite:2');
      expect(await embedder.embed(['a', 'b'], 'document')).toEqual([
        [1, 0],
        [0, 1],
      ]);
      server.assertDone();
      expect(server.received[0]?.body).toEqual({
        input: ['a', 'b'],
        model: 'voyage-3.5-lite',
        input_type: 'document',
        output_dimension: 2,
      });
      expect(server.received[0]?.headers.authorization).toBe('Bearer test-key-not-a-secret');
    } finally {
      await server.close();
    }
  });

  it('maps an error answer to a ProviderError with its delay', async () => {
    const server = await startReplayServer(
      cassette('rate limited', [answer({ detail: 'Rate limit exceeded.' }, 429, { 'retry-after': '2' })]),
    );
    try {
      const embedder = createVoyageEmbedder({ model: 'voyage-3.5', apiKey: 'k', baseURL: server.url });
      const error = await embedder.embed(['x'], 'query').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: 'rate_limited', status: 429, retryable: true, retryAfterMs: 2000 });
      expect((error as Error).message).toContain('Rate limit exceeded.');
    } finally {
      await server.close();
    }
  });

  it('refuses to be built without a key, naming the variable', () => {
    expect(() => createVoyageEmbedder({ model: 'voyage-3.5', env: {} })).toThrow(AnthropicConfigurationError);
    expect(() => createVoyageEmbedder({ model: 'voyage-3.5', env: {} })).toThrow(/VOYAGE_API_KEY/);
  });
});
