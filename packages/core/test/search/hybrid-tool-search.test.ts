// The hybrid search's own rules, with an embedder written here (what an application supplies): fusion,
// vectors cached by the tool's definition digest, the namespace filter on both sides, and the fallback to
// the lexical ranking when the embedder fails or answers with unusable vectors.
import { describe, expect, it } from 'vitest';
import {
  createHybridToolSearch,
  createToolSearchIndex,
  type Embedder,
  EmbeddingResponseError,
  fuseRankings,
  InMemoryToolVectorCache,
  type SearchableTool,
  toolVectorKey,
} from '../../src/index.js';

const tool = (name: string, description: string, namespace?: string): SearchableTool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
  ...(namespace === undefined ? {} : { namespace }),
});

/** Vectors by meaning, crudely: one axis per group of words that mean the same; 1 where a text has one. */
function keywordEmbedder(axes: readonly (readonly string[])[], calls: string[][] = []): Embedder {
  return {
    id: 'test:keywords',
    async embed(texts) {
      calls.push([...texts]);
      return texts.map((text) =>
        axes.map((words) => (words.some((word) => text.toLowerCase().includes(word)) ? 1 : 0.01)),
      );
    },
  };
}

describe('fuseRankings', () => {
  it('adds reciprocal ranks, so a tool high in both lists wins', () => {
    const lexical = [
      { name: 'a', score: 9 },
      { name: 'b', score: 5 },
    ];
    const semantic = [
      { name: 'b', score: 0.9 },
      { name: 'c', score: 0.8 },
    ];
    expect(fuseRankings(lexical, semantic, { kind: 'reciprocal-rank', k: 60 }, 3).map((hit) => hit.name)).toEqual([
      'b',
      'a',
      'c',
    ]);
    // Weighted: scores scaled by each list's best; all lexical weight keeps the lexical order.
    expect(fuseRankings(lexical, semantic, { kind: 'weighted', lexicalWeight: 1 }, 2).map((hit) => hit.name)).toEqual([
      'a',
      'b',
    ]);
  });
});

describe('createHybridToolSearch', () => {
  const tools = [
    tool('send_sms', 'Delivers a short message to a phone.', 'twilio'),
    tool('send_email', 'Delivers an email.', 'mail'),
    tool('list_invoices', 'Lists invoices.', 'billing'),
  ];
  const axes = [
    ['phone', 'mobile'],
    ['email', 'inbox'],
    ['invoice', 'bill'],
  ];

  it('finds by meaning what the lexical search misses, and caches tool vectors by definition', async () => {
    const calls: string[][] = [];
    const cache = new InMemoryToolVectorCache();
    const embedder = keywordEmbedder(axes, calls);
    const lexical = createToolSearchIndex(tools);
    expect(lexical.search('ring her mobile')).toEqual([]);
    const hybrid = createHybridToolSearch(tools, lexical, { embedder, cache });
    expect((await hybrid.search('ring her mobile', 1)).map((hit) => hit.name)).toEqual(['send_sms']);
    expect((await hybrid.search('write to their inbox', 1)).map((hit) => hit.name)).toEqual(['send_email']);
    // The tools were embedded once (3 texts), then one query per search.
    expect(calls.map((texts) => texts.length)).toEqual([3, 1, 1]);

    // A new search over the same definitions reads the cache; a changed definition is embedded again.
    const changed = [
      tools[0] as SearchableTool,
      tools[1] as SearchableTool,
      tool('list_invoices', 'Lists unpaid invoices.', 'billing'),
    ];
    const again = createHybridToolSearch(changed, createToolSearchIndex(changed), { embedder, cache });
    await again.prepare();
    expect(calls.at(-1)).toEqual([expect.stringContaining('Lists unpaid invoices.')]);
    expect(toolVectorKey('test:keywords', changed[2] as SearchableTool)).not.toBe(
      toolVectorKey('test:keywords', tools[2] as SearchableTool),
    );
    expect(toolVectorKey('other:model', tools[0] as SearchableTool)).not.toBe(
      toolVectorKey('test:keywords', tools[0] as SearchableTool),
    );
  });

  it('keeps the namespace filter on the embedding side too', async () => {
    const hybrid = createHybridToolSearch(tools, createToolSearchIndex(tools), { embedder: keywordEmbedder(axes) });
    expect(await hybrid.search('ring her mobile', 3, { namespace: 'mail' })).toEqual([
      expect.objectContaining({ name: 'send_email' }),
    ]);
  });

  it('falls back to the lexical ranking when the embedder fails or answers badly, and reports it', async () => {
    const errors: unknown[] = [];
    const failing: Embedder = {
      id: 'test:down',
      embed: async () => {
        throw new Error('connection refused');
      },
    };
    const hybrid = createHybridToolSearch(tools, createToolSearchIndex(tools), {
      embedder: failing,
      onError: (error) => errors.push(error),
    });
    expect((await hybrid.search('send an email', 1)).map((hit) => hit.name)).toEqual(['send_email']);
    expect(errors).toEqual([new Error('connection refused')]);

    const short: Embedder = { id: 'test:short', embed: async (texts) => texts.slice(1).map(() => [1, 0]) };
    const bad = createHybridToolSearch(tools, createToolSearchIndex(tools), {
      embedder: short,
      onError: (error) => errors.push(error),
    });
    expect((await bad.search('invoices', 1)).map((hit) => hit.name)).toEqual(['list_invoices']);
    expect(errors[1]).toBeInstanceOf(EmbeddingResponseError);
    expect((errors[1] as Error).message).toContain('2 vectors for 3 texts');
  });
});
