import { type JsonValue, type ModelTurn, ProviderError, toolCallsOf } from '@toolcircuit/core';
import { type CassetteIndexEntry, loadCassette, loadCassetteIndex } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { SDKS } from './support/gemini-cassette.js';
import {
  asArray,
  asObject,
  functionPartPlacement,
  recordedCalls,
  recordedHistory,
  recordedSystem,
  recordedTools,
} from './support/recorded-conversation.js';
import { modelFor, withReplay } from './support/replay.js';

/**
 * Every imported Gemini recording that holds a tool call, a tool-result round trip or a provider error
 * runs through the adapter, over both SDKs, against the replay server.
 */
const entries = loadCassetteIndex().entries.filter(
  (entry): entry is CassetteIndexEntry & { cassette: string } => entry.protocol === 'gemini' && entry.cassette !== null,
);
const relevant = entries.filter((entry) =>
  (entry.responses ?? []).some(
    (response) => response.toolCalls > 0 || response.error !== undefined || response.status >= 400,
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

const generateEntries = relevant.filter((entry) => entry.streaming !== true && UNUSABLE[entry.cassette] === undefined);

describe('the recorded Gemini cassettes', () => {
  it('are all either replayed here or listed as unusable with a reason', () => {
    expect(relevant.length).toBeGreaterThanOrEqual(20);
    const streaming = relevant.filter((entry) => entry.streaming === true && UNUSABLE[entry.cassette] === undefined);
    expect(generateEntries.length + streaming.length + Object.keys(UNUSABLE).length).toBe(relevant.length);
    for (const name of Object.keys(UNUSABLE)) expect(relevant.map((entry) => entry.cassette)).toContain(name);
    const errors = relevant.filter((entry) => (entry.responses ?? []).some((response) => response.status >= 400));
    expect(errors.map((entry) => entry.cassette).sort()).toEqual(Object.keys(EXPECTED_ERRORS).sort());
  });
});

describe.each(SDKS)('recorded generateContent cassettes over %s', (sdk) => {
  it.each(generateEntries.map((entry) => [entry.cassette, entry] as const))('%s', async (name, entry) => {
    const cassette = loadCassette(name);
    const responses = cassette.interactions.map((interaction) =>
      interaction.response.body.kind === 'json' ? interaction.response.body.json : undefined,
    );
    const tools = recordedTools(cassette, responses);
    const system = recordedSystem(cassette);
    await withReplay(cassette, async (server) => {
      const model = modelFor(sdk, server, { modelId: cassette.model ?? 'gemini-2.5-flash' });
      const turns: ModelTurn[] = [];
      for (const [index, interaction] of cassette.interactions.entries()) {
        const summary = entry.responses?.[index];
        const recordedContents = asArray(asObject(interaction.request.body)?.['contents']);
        const messages =
          recordedContents.length > 0
            ? recordedHistory(recordedContents, turns)
            : [{ role: 'user' as const, content: 'The recording did not keep its request.' }];
        const request = { messages, tools, ...(system === undefined ? {} : { system }) };

        if (interaction.response.status >= 400) {
          const error = await model.generate(request).catch((caught: unknown) => caught);
          expect(error).toBeInstanceOf(ProviderError);
          expect(error).toMatchObject(EXPECTED_ERRORS[name] ?? { code: 'expected an entry in EXPECTED_ERRORS' });
          continue;
        }

        const turn = await model.generate(request);
        turns.push(turn);
        const calls = toolCallsOf(turn.content);
        const expected = recordedCalls(responses[index]);
        expect(calls.length).toBe(summary?.toolCalls);
        expect(calls.map((call) => call.name)).toEqual(expected.map((call) => call.name));
        expect(calls.map((call) => call.input)).toEqual(expected.map((call) => call.args ?? {}));
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
});
