// A run's structured answer on the Messages API, through the SDK over HTTP: the real recorded structured
// answer (anthropic-sdk-python's TestAsyncParse: output_config.format, two 429s, then the answer), the
// answer streamed in both ways the adapter carries it, and the model rule. Synthetic streams are labelled.
import { createCatalogue, createSession, type JsonObject, type JsonValue, runLoop } from '@toolcircuit/core';
import {
  loadCassette,
  runStructuredOutputScenario,
  STRUCTURED_OUTPUT_SCENARIOS,
  STRUCTURED_OUTPUT_VARIANTS,
  startReplayServer,
  structuredOutputProblems,
} from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createAnthropicModel, defaultAnthropicStructuredOutput } from '../src/index.js';
import { messageSse } from './stream-events.js';

const RECORDED = 'anthropic/anthropic-sdk-python__TestAsyncParse__d743d628-16aa-4c9f-ae78-51deb578f746';

describe('the recorded structured answer (real traffic)', () => {
  it('sends the recorded output_config.format (refs inlined), retries the 429s, returns the parsed, validated order', async () => {
    const cassette = loadCassette(RECORDED);
    const recorded = cassette.interactions[0]?.request.body as JsonObject;
    const schema = (recorded['output_config'] as { format: { schema: JsonObject } }).format.schema;
    const server = await startReplayServer(cassette);
    try {
      // The recorded model id is deprecated now (the SDK would warn); claude-sonnet-4-6 has structured outputs too.
      const model = createAnthropicModel({
        model: 'claude-sonnet-4-6',
        apiKey: 'test-key-not-secret',
        baseURL: server.url,
        maxRetries: 2,
      });
      const result = await runLoop({
        model,
        catalogue: createCatalogue([]),
        session: createSession({ id: 's', humanId: 'h', rights: [] }),
        messages: [{ role: 'user', content: String((recorded['messages'] as JsonObject[])[0]?.['content']) }],
        maxOutputTokens: Number(recorded['max_tokens']),
        output: { schema },
      });
      expect(server.mismatches.map((mismatch) => mismatch.reason)).toEqual([]);
      expect(server.remaining).toBe(0);
      const sent = server.received.map((request) => request.body as JsonObject);
      // The same format, its `$ref` to a non-recursive `$defs` entry inlined (the translator inlines those).
      expect(sent.map((body) => body['output_config'])).toEqual(
        [1, 2, 3].map(() => ({ format: { type: 'json_schema', schema: inlined(schema) } })),
      );
      expect(sent[2]?.['max_tokens']).toBe(recorded['max_tokens']);
      expect(JSON.stringify(sent[2]?.['messages'])).toContain('Extract order: 2 Green Tea at $5.50');
      expect(result.output).toEqual({
        items: [
          { product_name: 'Green Tea', price: 5.5, quantity: 2 },
          { product_name: 'Coffee', price: 3, quantity: 1 },
        ],
        total: 14,
      });
    } finally {
      await server.close();
    }
  });
});

/** The schema with every local `$ref` replaced by its target and `$defs` dropped (no recursion here). */
function inlined(root: JsonObject): JsonObject {
  const defs = (root['$defs'] ?? {}) as Record<string, JsonValue>;
  const walk = (node: JsonValue): JsonValue => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const ref = node['$ref'];
    if (typeof ref === 'string') return walk(defs[ref.replace('#/$defs/', '')] ?? null);
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => key !== '$defs')
        .map(([key, value]) => [key, walk(value)]),
    );
  };
  return walk(root) as JsonObject;
}

describe('structured output streamed (synthetic streams of the conformance cassettes)', () => {
  for (const variant of STRUCTURED_OUTPUT_VARIANTS.filter((item) => item.protocol === 'anthropic-messages')) {
    for (const scenario of STRUCTURED_OUTPUT_SCENARIOS) {
      it(`${scenario.id} (${variant.mode}): partial objects on the event stream, the final one validated`, async () => {
        const run = await runStructuredOutputScenario({
          variant,
          scenario,
          // Text and tool input in 7-character deltas.
          stream: (response) => messageSse(response, 7),
          createModel: ({ baseURL, modelId }) =>
            createAnthropicModel({ model: modelId, baseURL, apiKey: 'test-key-not-secret', maxRetries: 0 }),
        });
        expect(structuredOutputProblems(run, variant, scenario)).toEqual([]);
      });
    }
  }
});

describe('which models get structured outputs', () => {
  it.each([
    ['claude-sonnet-4-5-20250929', 'native'],
    ['claude-haiku-4-5', 'native'],
    ['claude-opus-4-8', 'native'],
    ['claude-sonnet-5-5', 'native'],
    ['claude-opus-5', 'native'],
    ['claude-sonnet-4-20250514', 'tool'],
    ['claude-opus-4-1', 'tool'],
    ['claude-3-5-haiku-20241022', 'tool'],
    ['claude-fable-5', 'tool'],
  ] as const)('%s → %s', (model, mode) => {
    expect(defaultAnthropicStructuredOutput(model)).toBe(mode);
  });

  it('structuredOutput overrides the guess, and a wrong value is refused at creation', async () => {
    expect(() =>
      createAnthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'k', structuredOutput: 'json' as never }),
    ).toThrow(/structuredOutput must be 'native' or 'tool'/);
  });
});
