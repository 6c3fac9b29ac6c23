// A run's structured answer on Gemini over both SDKs, streamed through the SDK over HTTP: JSON mode's text
// arrives in several chunks (partial objects on the event stream), the answer tool's call whole (Gemini
// streams calls whole), a safety block as a typed refusal. The streams are made from the synthetic
// conformance cassettes. And the model rule for JSON mode next to tools, against the recorded 400 that
// earlier models answer JSON mode with function calling with.
import { type JsonObject, ProviderError, runLoop } from '@toolcircuit/core';
import {
  loadCassette,
  runStructuredOutputScenario,
  STRUCTURED_OUTPUT_SCENARIOS,
  STRUCTURED_OUTPUT_VARIANTS,
  startReplayServer,
  structuredOutputLoopOptions,
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

describe('the recorded refusal of JSON mode next to tools (real traffic: vercel-ai issue 10023)', () => {
  const cassette = loadCassette('gemini/vercel-ai__issue-10023-output-with-tools-error');
  const run = async (structuredOutput?: 'native') => {
    const server = await startReplayServer(cassette);
    try {
      const model = createGoogleModel({
        ...common,
        model: String(cassette.model),
        baseURL: server.url,
        ...(structuredOutput === undefined ? {} : { structuredOutput }),
      });
      const error = await runLoop({
        model,
        ...structuredOutputLoopOptions('Donne-moi la fiche du dossier A-1234.'),
      }).catch((thrown: unknown) => thrown);
      return { error, body: server.received[0]?.body as JsonObject | undefined };
    } finally {
      await server.close();
    }
  };

  it('forcing JSON mode next to function calling on that model gets the recorded 400, as a ProviderError', async () => {
    const { error, body } = await run('native');
    expect(body?.['generationConfig']).toMatchObject({ responseMimeType: 'application/json' });
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(String((error as Error).message)).toContain(
      "Function calling with a response mime type: 'application/json' is unsupported",
    );
  });

  it('the default for that model id sends the answer tool instead, with no JSON mode', async () => {
    const { body } = await run();
    const config = (body?.['generationConfig'] ?? {}) as JsonObject;
    expect([config['responseMimeType'], config['responseJsonSchema']]).toEqual([undefined, undefined]);
    const declared = ((body?.['tools'] ?? []) as JsonObject[]).flatMap((tool) =>
      (tool['functionDeclarations'] as JsonObject[]).map((item) => item['name']),
    );
    expect(declared).toContain('final_answer');
    expect(body?.['toolConfig']).toEqual({ functionCallingConfig: { mode: 'ANY' } });
  });
});
