import { type JsonValue, type ModelRequest, type ModelTurn, ProviderError, toolCallsOf } from '@toolcircuit/core';
import { type CassetteIndexEntry, loadCassette, loadCassetteIndex } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { collect, turnEnd } from './support/collect.js';
import { SDKS } from './support/gemini-cassette.js';
import {
  asArray,
  asObject,
  functionPartPlacement,
  recordedCalls,
  recordedChunks,
  recordedHistory,
  recordedSystem,
  recordedTools,
} from './support/recorded-conversation.js';
import { modelFor, withReplay } from './support/replay.js';

/**
 * Every imported Gemini recording that holds a tool call, a tool-result round trip or a provider error
 * runs through the adapter, over both SDKs, against the replay server: generateContent recordings
 * through generate(), streamGenerateContent recordings through stream().
 */
const entries = loadCassetteIndex().entries.filter(
  (entry): entry is CassetteIndexEntry & { cassette: string } => entry.protocol === 'gemini' && entry.cassette !== null,
);
const relevant = entries.filter((entry) =>
  (entry.responses ?? []).some(
    (response) =>
      response.toolCalls > 0 ||
      response.error !== undefined ||
      response.status >= 400 ||
      (response.sources ?? 0) > 0 ||
      (response.hostedItems ?? 0) > 0,
  ),
);

/** Recordings no SDK-based adapter can replay, and why. Asserted below: nothing is dropped silently. */
const UNUSABLE: Readonly<Record<string, string>> = {
  'gemini/llm-gemini__test_tools':
    'streamGenerateContent without alt=sse (one JSON array): both SDKs always request alt=sse and parse SSE.',
  'gemini/llm-gemini__test_tools_with_gemini_3_thought_signatures':
    'streamGenerateContent without alt=sse (one JSON array): both SDKs always request alt=sse and parse SSE.',
};

/** What each recorded error must become. */
const EXPECTED_ERRORS: Readonly<Record<string, Partial<ProviderError>>> = {
  'gemini/vercel-ai__google-429-retry-info': {
    code: 'rate_limited',
    status: 429,
    retryable: true,
    retryAfterMs: 34_400,
  },
  'gemini/vertexai-sdk-test-data__unary-failure-quota-exceeded': {
    code: 'rate_limited',
    status: 429,
    retryable: true,
    retryAfterMs: undefined,
  },
  'gemini/vercel-ai__issue-10023-output-with-tools-error': { code: 'invalid_request', status: 400, retryable: false },
};

/** Vertex streamed-arguments recordings: their arguments are assembled from pieces, so they are spelled out. */
const STREAMED_ARGUMENTS: Readonly<Record<string, readonly { name: string; input: JsonValue }[]>> = {
  'gemini/vercel-ai__google-stream-tool-call-arguments.chunks': [
    { name: 'getWeather', input: { location: 'Boston' } },
    { name: 'getWeather', input: { location: 'San Francisco' } },
  ],
  'gemini/vercel-ai__google-stream-no-args-tool-call.chunks': [
    { name: 'read_theme', input: {} },
    { name: 'read_screen', input: { id: 'A' } },
    { name: 'read_screen', input: { id: 'B' } },
    { name: 'read_screen', input: { id: 'C' } },
  ],
};

const usable = relevant.filter((entry) => UNUSABLE[entry.cassette] === undefined);

describe('the recorded Gemini cassettes', () => {
  it('are all either replayed here or listed as unusable with a reason', () => {
    expect(relevant.length).toBeGreaterThanOrEqual(20);
    expect(usable.length + Object.keys(UNUSABLE).length).toBe(relevant.length);
    for (const [name, reason] of Object.entries(UNUSABLE)) {
      expect(relevant.map((entry) => entry.cassette)).toContain(name);
      expect(reason).not.toBe('');
    }
    const errors = relevant.filter((entry) => (entry.responses ?? []).some((response) => response.status >= 400));
    expect(errors.map((entry) => entry.cassette).sort()).toEqual(Object.keys(EXPECTED_ERRORS).sort());
    expect(usable.filter((entry) => entry.streaming === true).length).toBeGreaterThanOrEqual(8);
  });
});

describe.each(SDKS)('recorded cassettes over %s', (sdk) => {
  it.each(usable.map((entry) => [entry.cassette, entry] as const))('%s', async (name, entry) => {
    const cassette = loadCassette(name);
    const chunks = cassette.interactions.map((interaction) => recordedChunks(interaction.response.body));
    const tools = recordedTools(cassette, chunks);
    const system = recordedSystem(cassette);
    await withReplay(cassette, async (server) => {
      const model = modelFor(sdk, server, { model: cassette.model ?? 'gemini-2.5-flash' });
      const turns: ModelTurn[] = [];
      for (const [index, interaction] of cassette.interactions.entries()) {
        const summary = entry.responses?.[index];
        const recordedContents = asArray(asObject(interaction.request.body)?.['contents']);
        const messages =
          recordedContents.length > 0
            ? recordedHistory(recordedContents, turns)
            : [{ role: 'user' as const, content: 'The recording did not keep its request.' }];
        const request: ModelRequest = { messages, tools, ...(system === undefined ? {} : { system }) };

        if (interaction.response.status >= 400) {
          const error = await model.generate(request).catch((caught: unknown) => caught);
          expect(error).toBeInstanceOf(ProviderError);
          expect(error).toMatchObject(EXPECTED_ERRORS[name] ?? { code: 'expected an entry in EXPECTED_ERRORS' });
          continue;
        }

        // Per response: a recording may stream one answer and not the next.
        const streaming = summary?.streaming ?? entry.streaming === true;
        const turn = streaming ? await streamedTurn(model.stream?.(request)) : await model.generate(request);
        turns.push(turn);
        expectRecordedSources(turn, chunks[index] ?? []);
        const calls = toolCallsOf(turn.content);
        expect(calls.length).toBe(summary?.toolCalls);
        expect(calls.every((call) => call.inputError === undefined)).toBe(true);
        const expected =
          STREAMED_ARGUMENTS[name] ??
          recordedCalls(chunks[index] ?? []).map((call) => ({ name: call.name, input: call.args ?? {} }));
        expect(calls.map((call) => ({ name: call.name, input: call.input }))).toEqual(expected);
        expect(new Set(calls.map((call) => call.id)).size).toBe(calls.length);
        expect(turn.stopReason).toEqual({
          unified: calls.length > 0 ? 'tool_calls' : 'end_turn',
          raw: summary?.stopReason ?? undefined,
        });

        // The request we sent carries tool results where the recorded one did.
        if (recordedContents.some((content) => JSON.stringify(content).includes('functionResponse'))) {
          const sent = asArray(asObject(server.received[index]?.body as JsonValue)?.['contents']);
          expect(functionPartPlacement(sent)).toEqual(functionPartPlacement(recordedContents));
          const resultsRole = sdk === 'genai' ? 'user' : 'function';
          for (const content of sent) {
            const object = asObject(content);
            if (JSON.stringify(object).includes('functionResponse')) expect(object?.['role']).toBe(resultsRole);
          }
        }
      }
      expect(server.mismatches).toEqual([]);
      expect(server.remaining).toBe(0);
    });
  });

  it('streams vercel-ai google-tool-call like its generateContent recording (two captures of one prompt)', async () => {
    const whole = loadCassette('gemini/vercel-ai__google-tool-call');
    const chunked = loadCassette('gemini/vercel-ai__google-tool-call.chunks');
    const request: ModelRequest = {
      messages: [{ role: 'user', content: 'What is the weather in San Francisco?' }],
      tools: [{ name: 'weather', description: '', inputSchema: { type: 'object', properties: {} } }],
    };
    const generated = await withReplay(whole, (server) =>
      modelFor(sdk, server, { model: whole.model ?? '' }).generate(request),
    );
    const streamed = await withReplay(chunked, async (server) =>
      streamedTurn(modelFor(sdk, server, { model: chunked.model ?? '' }).stream?.(request)),
    );
    // Separate captures: ids (seeded by responseId), signatures and usage differ; the calls do not.
    const shape = (turn: ModelTurn) => ({
      calls: toolCallsOf(turn.content).map((call) => ({ name: call.name, input: call.input })),
      types: turn.content.map((part) => part.type),
      stopReason: turn.stopReason,
    });
    expect(shape(streamed)).toEqual(shape(generated));
  });
});

/**
 * Nothing of the grounding vanishes: every chunk a recorded response cites is a source, each cited where its
 * support says (the text at the source's range is the support's segment text), and every URL the URL context
 * retrieved is a source too. Read from the recorded chunks, apart from the adapter's own reading.
 */
function expectRecordedSources(turn: ModelTurn, chunks: readonly JsonValue[]): void {
  const placed = turn.content.flatMap((part) =>
    part.type === 'text' ? (part.sources ?? []).map((source) => ({ source, text: part.text })) : [],
  );
  const urls = new Set(placed.map(({ source }) => source.url));
  const last = (field: string) =>
    chunks
      .map((chunk) => asObject(asObject(asArray(asObject(chunk)?.['candidates'])[0])?.[field]))
      .filter((value) => value !== undefined)
      .at(-1);
  const grounding = last('groundingMetadata');
  const groundingChunks = asArray(grounding?.['groundingChunks']).map((chunk) => asObject(asObject(chunk)?.['web']));
  for (const chunk of groundingChunks) expect(urls).toContain(chunk?.['uri']);
  for (const support of asArray(grounding?.['groundingSupports'])) {
    const segment = asObject(asObject(support)?.['segment']);
    for (const chunkIndex of asArray(asObject(support)?.['groundingChunkIndices'])) {
      const uri = groundingChunks[Number(chunkIndex)]?.['uri'];
      const cited = placed.filter(
        ({ source, text }) =>
          source.url === uri &&
          source.textRange !== undefined &&
          text.slice(source.textRange.start, source.textRange.end) === segment?.['text'],
      );
      expect(cited.length, `support "${String(segment?.['text']).slice(0, 40)}" of ${String(uri)}`).toBeGreaterThan(0);
    }
  }
  for (const entry of asArray(last('urlContextMetadata')?.['urlMetadata'])) {
    expect(urls).toContain(asObject(entry)?.['retrievedUrl']);
  }
  // The metadata itself stays on the turn (a search entry point must be shown as Google gives it).
  if (grounding !== undefined) expect(turn.providerMetadata?.['google']?.['groundingMetadata']).toEqual(grounding);
  expect(turn.content.filter((part) => part.type === 'provider')).toEqual([]);
}

async function streamedTurn(stream: Parameters<typeof collect>[0]): Promise<ModelTurn> {
  const events = await collect(stream);
  const end = turnEnd(events);
  const sources = end.turn.content.flatMap((part) => (part.type === 'text' ? (part.sources ?? []) : []));
  expect(events.flatMap((event) => (event.type === 'source' ? [event.source] : []))).toEqual(sources);
  expect(end.incompleteToolCallIds).toEqual([]);
  // Every call of the turn was announced and completed, in order, with the same id and input.
  const calls = toolCallsOf(end.turn.content);
  expect(events.filter((event) => event.type === 'tool-call-start').map((event) => event.id)).toEqual(
    calls.map((call) => call.id),
  );
  expect(
    events.flatMap((event) => (event.type === 'tool-call-end' ? [{ id: event.id, input: event.input }] : [])),
  ).toEqual(calls.map((call) => ({ id: call.id, input: call.input })));
  return end.turn;
}
