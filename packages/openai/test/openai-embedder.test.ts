// createOpenAIEmbedder through the official SDK against the replay server (synthetic embedding responses in
// the endpoint's documented shape, labelled so), and hybrid tool search wired end to end: a deferred
// catalogue whose search embeds its tools and the model's query, fuses the rankings, and loads a tool the
// lexical search alone does not find.
import {
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  InMemoryToolVectorCache,
  type JsonObject,
  ProviderError,
  runLoop,
  toolEmbeddingText,
} from '@toolcircuit/core';
import { createScriptedModel, startReplayServer, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAIEmbedder } from '../src/index.js';
import { jsonInteraction, syntheticCassette } from './support/cassettes.js';

const EMBEDDINGS_PATH = '/v1/embeddings';

/** The endpoint's response shape, vectors listed in the order given (the SDK keeps `index`). */
function embeddingsResponse(vectors: readonly (readonly number[])[], order = vectors.map((_, index) => index)) {
  return {
    object: 'list',
    data: order.map((index) => ({ object: 'embedding', index, embedding: [...(vectors[index] ?? [])] })),
    model: 'text-embedding-3-small',
    usage: { prompt_tokens: 8, total_tokens: 8 },
  };
}

const key = { apiKey: 'test-key-not-a-secret', maxRetries: 0 } as const;

describe('createOpenAIEmbedder', () => {
  it('sends the texts, the model and the dimensions, and returns the vectors in index order', async () => {
    const server = await startReplayServer(
      syntheticCassette('openai-chat', 'embeddings: two texts, answered out of order', [
        jsonInteraction(
          EMBEDDINGS_PATH,
          embeddingsResponse(
            [
              [1, 0],
              [0, 1],
            ],
            [1, 0],
          ),
        ),
      ]),
    );
    try {
      const embedder = createOpenAIEmbedder({
        ...key,
        model: 'text-embedding-3-small',
        dimensions: 2,
        baseURL: `${server.url}/v1`,
      });
      expect(embedder.id).toBe('openai:text-embedding-3-small:2');
      expect(await embedder.embed(['first', 'second'], 'document')).toEqual([
        [1, 0],
        [0, 1],
      ]);
      server.assertDone();
      expect(server.received[0]?.body).toEqual({
        model: 'text-embedding-3-small',
        input: ['first', 'second'],
        encoding_format: 'float',
        dimensions: 2,
      });
    } finally {
      await server.close();
    }
  });

  it('turns an error answer into a ProviderError', async () => {
    const server = await startReplayServer(
      syntheticCassette('openai-chat', 'embeddings: rate limited', [
        jsonInteraction(
          EMBEDDINGS_PATH,
          { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
          429,
          { 'retry-after-ms': '1500' },
        ),
      ]),
    );
    try {
      const embedder = createOpenAIEmbedder({ ...key, model: 'text-embedding-3-small', baseURL: `${server.url}/v1` });
      const error = await embedder.embed(['x'], 'query').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: 'rate_limited', status: 429, retryable: true, retryAfterMs: 1500 });
    } finally {
      await server.close();
    }
  });
});

describe('hybrid tool search, end to end', () => {
  const ran: string[] = [];
  const tool = (name: string, description: string) =>
    defineTool({
      name,
      description,
      inputSchema: { type: 'object', properties: { to: { type: 'string' }, body: { type: 'string' } } },
      right: everySession,
      run: ({ to }) => {
        ran.push(`${name}:${String(to)}`);
        return 'sent';
      },
    });
  const tools = [
    tool('send_sms', 'Delivers an SMS to a phone number.'),
    tool('send_email', 'Delivers an email to an address.'),
    tool('post_slack_message', 'Posts to a Slack channel.'),
    tool('create_invoice', 'Creates an invoice for a customer.'),
  ];
  // Synthetic vectors: one axis per tool; the query "text my mother" points at send_sms's axis.
  const toolVectors = tools.map((_, index) => tools.map((__, axis) => (axis === index ? 1 : 0.1)));
  const queryVector = [0.9, 0.2, 0.1, 0];
  const query = 'text my mother';

  it('embeds the tools once, then each query, and loads the tool the fused ranking finds', async () => {
    const server = await startReplayServer(
      syntheticCassette('openai-chat', 'embeddings: the four deferred tools, then two queries', [
        jsonInteraction(EMBEDDINGS_PATH, embeddingsResponse(toolVectors)),
        jsonInteraction(EMBEDDINGS_PATH, embeddingsResponse([queryVector])),
        jsonInteraction(EMBEDDINGS_PATH, embeddingsResponse([queryVector])),
      ]),
    );
    try {
      const embedder = createOpenAIEmbedder({ ...key, model: 'text-embedding-3-small', baseURL: `${server.url}/v1` });
      const cache = new InMemoryToolVectorCache();
      const errors: unknown[] = [];
      const catalogue = createCatalogue(tools, {
        defer: true,
        toolSearch: { embeddings: { embedder, cache, onError: (error) => errors.push(error) } },
      });
      // The lexical search alone finds nothing: no tool says "text" or "mother".
      expect(catalogue.toolSearch?.search(query)).toEqual([]);
      const model = createScriptedModel([
        toolCallsTurn([{ name: 'tool_search', input: { query, limit: 2 } }]),
        toolCallsTurn([{ name: 'send_sms', input: { to: '+33600000000', body: 'Late, sorry' } }]),
        textTurn('Texted her.'),
      ]);
      const result = await runLoop({
        model,
        catalogue,
        session: createSession({ id: 's', humanId: 'h', rights: [] }),
        messages: [{ role: 'user', content: 'Text my mother that I am late.' }],
      });
      expect(errors).toEqual([]);
      expect(result.status).toBe('completed');
      expect(ran).toEqual(['send_sms:+33600000000']);
      // The model was shown send_sms after the search, and not the tools it did not load.
      const shown = model.requests[1]?.tools.map((declared) => declared.name) ?? [];
      expect(shown).toContain('send_sms');
      expect(shown).not.toContain('create_invoice');
      const body = (index: number) => server.received[index]?.body as JsonObject;
      expect(body(0).input).toEqual(catalogue.toolSearch?.deferred.map(toolEmbeddingText));
      expect(body(1).input).toEqual([query]);
      expect(cache.size).toBe(4);

      // A second search reuses the cached tool vectors: only the query goes out.
      const hits = await catalogue.toolSearch?.find(query, 1);
      expect(hits?.map((hit) => hit.name)).toEqual(['send_sms']);
      server.assertDone();
      expect(server.received).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('answers with the lexical ranking when the embedding endpoint fails, and says why', async () => {
    const server = await startReplayServer(
      syntheticCassette('openai-chat', 'embeddings: server error', [
        jsonInteraction(EMBEDDINGS_PATH, { error: { message: 'boom', type: 'server_error' } }, 500),
      ]),
    );
    try {
      const embedder = createOpenAIEmbedder({ ...key, model: 'text-embedding-3-small', baseURL: `${server.url}/v1` });
      const errors: unknown[] = [];
      const catalogue = createCatalogue(tools, {
        defer: true,
        toolSearch: { embeddings: { embedder, onError: (error) => errors.push(error) } },
      });
      const hits = await catalogue.toolSearch?.find('send an email', 1);
      expect(hits?.map((hit) => hit.name)).toEqual(['send_email']);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ code: 'server_error', status: 500 });
    } finally {
      await server.close();
    }
  });
});
