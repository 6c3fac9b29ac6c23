// A run's structured answer on Gemini over both SDKs, streamed through the SDK over HTTP: JSON mode's text
// arrives in several chunks (partial objects on the event stream), the answer tool's call whole (Gemini
// streams calls whole), a safety block as a typed refusal. The streams are made from the synthetic
// conformance cassettes. And the model rule for JSON mode next to tools.
import type { JsonObject } from '@toolcircuit/core';
import {
  runStructuredOutputScenario,
  STRUCTURED_OUTPUT_SCENARIOS,
  STRUCTURED_OUTPUT_VARIANTS,
  structuredOutputProblems,
} from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createGoogleModel, defaultGoogleStructuredOutput } from '../src/index.js';

const common = { apiKey: 'test-key-not-a-secret', env: {} } as const;

/** A generateContent response as stream chunks: each text part in 6-character pieces, the rest whole. */
function streamed(response: JsonObject): string {
  const [candidate] = response['candidates'] as JsonObject[];
  const parts = ((candidate?.['content'] as JsonObject | undefined)?.['parts'] as JsonObject[] | undefined) ?? [];
  const chunks: JsonObject[] = [];
  for (const part of parts) {
    const pieces = typeof part['text'] === 'string' ? (part['text'].match(/[\s\S]{1,6}/g) ?? []) : [];
    if (pieces.length === 0) chunks.push({ candidates: [{ content: { parts: [part], role: 'model' }, index: 0 }] });
    for (const text of pieces)
      chunks.push({ candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0 }] });
  }
  const { content: _content, ...end } = candidate ?? {};
  chunks.push({ ...response, candidates: [{ ...end, content: { parts: [{ text: '' }], role: 'model' } }] });
  if (parts.length === 0) chunks.splice(0, chunks.length, response);
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join('');
}

for (const sdk of ['genai', 'generative-ai'] as const) {
  describe(`structured output streamed over @google/${sdk}`, () => {
    for (const variant of STRUCTURED_OUTPUT_VARIANTS.filter((item) => item.protocol === 'gemini')) {
      for (const scenario of STRUCTURED_OUTPUT_SCENARIOS) {
        it(`${scenario.id} (${variant.mode}, ${variant.model}): partials on the event stream, the final one validated`, async () => {
          const run = await runStructuredOutputScenario({
            variant,
            scenario,
            stream: streamed,
            createModel: ({ baseURL, modelId }) => createGoogleModel({ ...common, sdk, model: modelId, baseURL }),
          });
          expect(structuredOutputProblems(run, variant, scenario)).toEqual([]);
          if (variant.mode === 'native' && scenario.id !== 'structured_refusal') {
            expect(run.partials.length).toBeGreaterThan(5);
          }
        });
      }
    }
  });
}

describe('which Gemini models get JSON mode next to tools', () => {
  it.each([
    ['gemini-3-flash-preview', 'native'],
    ['gemini-3.1-pro-preview', 'native'],
    ['models/gemini-3-pro', 'native'],
    ['gemini-2.5-flash', 'tool'],
    ['gemini-2.0-flash', 'tool'],
    ['gemini-flash-latest', 'tool'],
  ] as const)('%s → %s', (model, mode) => {
    expect(defaultGoogleStructuredOutput(model)).toBe(mode);
  });

  it('a wrong structuredOutput is refused at creation', () => {
    expect(() =>
      createGoogleModel({ ...common, model: 'gemini-2.5-flash', structuredOutput: 'json' as never }),
    ).toThrow(/structuredOutput must be 'native' or 'tool'/);
  });
});
