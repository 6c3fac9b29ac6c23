// Gemini's hosted tools bring outside content into the answer: Google Search grounding, URL context and
// code execution results. The calls the model makes in that answer are judged with it: the adapter marks it
// (`ModelTurn.untrustedContent`), through both SDKs against the replay server (synthetic cassettes shaped
// like the generateContent reference).
import type { JsonValue } from '@toolcircuit/core';
import { createHostedResultScenario } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { jsonInteraction, SDKS, sseInteraction, syntheticCassette } from './support/gemini-cassette.js';
import { modelFor, withReplay } from './support/replay.js';

function answer(parts: JsonValue[], candidate: Record<string, JsonValue> = {}): JsonValue {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', ...candidate }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'gemini-2.5-flash',
    responseId: 'resp-hosted',
  };
}

function grounding(pageTitle: string): Record<string, JsonValue> {
  return {
    groundingMetadata: {
      webSearchQueries: ['Acme invoice 2026-11'],
      searchEntryPoint: { renderedContent: '<style>.container{}</style><div class="chip">Acme invoice</div>' },
      groundingChunks: [
        { web: { uri: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc', title: pageTitle } },
      ],
      groundingSupports: [
        { segment: { startIndex: 0, endIndex: 16, text: 'Found the invoice' }, groundingChunkIndices: [0] },
      ],
    },
  };
}

const urlContext: Record<string, JsonValue> = {
  urlContextMetadata: {
    urlMetadata: [
      { retrievedUrl: 'https://acme-billing.example/invoice', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' },
    ],
  },
};

type Shape = 'grounding' | 'url context' | 'code execution';

function response(shape: Shape, page: string, call: JsonValue): JsonValue {
  switch (shape) {
    case 'grounding':
      return answer([{ text: 'Found the invoice. ' }, call], grounding(page));
    case 'url context':
      return answer([{ text: 'Read the page. ' }, call], urlContext);
    case 'code execution':
      return answer([
        { executableCode: { language: 'PYTHON', code: 'print(open("invoice.txt").read())' } },
        { codeExecutionResult: { outcome: 'OUTCOME_OK', output: `${page}\n` } },
        call,
      ]);
  }
}

/** The source the human is shown: the item's id and kind. */
const expected: Record<Shape, { callId: string; toolName: string }> = {
  grounding: { callId: 'groundingMetadata', toolName: 'groundingMetadata' },
  'url context': { callId: 'urlContextMetadata', toolName: 'urlContextMetadata' },
  'code execution': { callId: 'codeExecutionResult-1', toolName: 'codeExecutionResult' },
};

describe.each(SDKS)('Gemini hosted content (%s)', (sdk) => {
  describe.each(['generate', 'stream'] as const)('%s', (mode) => {
    it.each(['grounding', 'url context', 'code execution'] as const)(
      'holds the call made in an answer with %s; a pre-approval never serves it',
      async (shape) => {
        const world = createHostedResultScenario();
        const call = { functionCall: { name: 'send_money', args: { ...world.payment } } };
        const first = response(shape, world.pageText, call);
        const cassette = syntheticCassette(`${shape}, then a payment in the same answer`, [
          mode === 'generate' ? jsonInteraction(first) : sseInteraction([first]),
          jsonInteraction(answer([{ text: 'Paid.' }])),
        ]);
        const outcome = await withReplay(cassette, async (server) => {
          const run = await world.run(modelFor(sdk, server), mode);
          expect(server.mismatches).toEqual([]);
          return run;
        });
        expect(outcome.first.status).toBe('paused');
        const request = outcome.first.paused?.pending[0]?.request;
        expect(request?.untrustedSources).toEqual([
          expect.objectContaining({ ...expected[shape], hosted: true, precedes: [request?.callId] }),
        ]);
        if (shape !== 'url context') {
          // The page title (grounding) or the program's output named the IBAN.
          expect(request?.flaggedArguments.find((flag) => flag.path === '/iban')?.foundIn[0]?.callId).toBe(
            expected[shape].callId,
          );
        }
        // Google's own search widget is not text anyone wrote into the page.
        expect(outcome.first.turns[0]?.untrustedContent?.[0]?.text).not.toContain('container{}');
        expect(outcome.resumed?.status).toBe('completed');
        expect(world.sent).toEqual([world.payment]);
        expect(world.confirmations.outstanding()).toHaveLength(1);
      },
    );
  });

  it('leaves an answer without hosted content to the ordinary rules (the pre-approval serves it)', async () => {
    const world = createHostedResultScenario();
    const cassette = syntheticCassette('a payment with no hosted content', [
      jsonInteraction(answer([{ functionCall: { name: 'send_money', args: { ...world.payment } } }])),
      jsonInteraction(answer([{ text: 'Paid.' }])),
    ]);
    const outcome = await withReplay(cassette, (server) => world.run(modelFor(sdk, server), 'generate'));
    expect(outcome.first.status).toBe('completed');
    expect(outcome.first.turns[0]?.untrustedContent).toBeUndefined();
    expect(world.sent).toEqual([world.payment]);
  });
});
