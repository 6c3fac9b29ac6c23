import type { Message, ModelRequest } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { buildGoogleRequest } from '../src/build-google-request.js';
import { createGoogleToolPreparer } from '../src/google-prepare-tools.js';
import { CASE_FILE_SYSTEM, CASE_FILE_TOOLS, CASE_FILE_USER } from './support/case-files.js';

const tools = createGoogleToolPreparer('gemini');
const GENAI = { functionResponseRole: 'user' } as const;
const LEGACY = { functionResponseRole: 'function' } as const;

const CALLS: Message = {
  role: 'assistant',
  content: [
    { type: 'tool_call', id: 'gemini-a-0', name: 'chercher_dossier', input: { numero: 'A-1234' } },
    {
      type: 'tool_call',
      id: 'call-b',
      name: 'lister_dossiers',
      input: {},
      providerMetadata: { google: { idSynthesized: false } },
    },
  ],
};
const RESULTS: Message = {
  role: 'tool',
  content: [
    { type: 'tool_result', callId: 'gemini-a-0', name: 'chercher_dossier', content: 'A-1234: open', isError: false },
    { type: 'tool_result', callId: 'call-b', name: 'lister_dossiers', content: 'timed out', isError: true },
  ],
};

const firstStep: ModelRequest = { system: CASE_FILE_SYSTEM, messages: [CASE_FILE_USER], tools: CASE_FILE_TOOLS };
// What the loop does between steps: a new array, the same message objects, one turn appended.
const secondStep: ModelRequest = { ...firstStep, messages: [CASE_FILE_USER, CALLS, RESULTS] };

function fresh(request: ModelRequest): ModelRequest {
  return { ...request, messages: structuredClone(request.messages) };
}

describe('per-message conversion cache', () => {
  it('reuses the converted content of an earlier message in the next request', () => {
    const first = buildGoogleRequest(firstStep, GENAI, tools).body;
    const second = buildGoogleRequest(secondStep, GENAI, tools).body;
    expect(second.contents[0]).toBe(first.contents[0]);
    expect(buildGoogleRequest(secondStep, GENAI, tools).body.contents[2]).toBe(second.contents[2]);
  });

  it('gives the same body and the same id seed as fresh (never cached) message objects', () => {
    buildGoogleRequest(secondStep, GENAI, tools);
    const cached = buildGoogleRequest(secondStep, GENAI, tools);
    const uncached = buildGoogleRequest(fresh(secondStep), GENAI, tools);
    expect(cached.body).toEqual(uncached.body);
    expect(cached.parse.requestSeed).toBe(uncached.parse.requestSeed);
  });

  it('converts again for the other SDK binding, and seeds differ when any earlier turn differs', () => {
    const genai = buildGoogleRequest(secondStep, GENAI, tools);
    const legacy = buildGoogleRequest(secondStep, LEGACY, tools);
    expect(genai.body.contents[2]?.role).toBe('user');
    expect(legacy.body.contents[2]?.role).toBe('function');
    expect(legacy.body).toEqual(buildGoogleRequest(fresh(secondStep), LEGACY, tools).body);
    const otherQuestion: ModelRequest = {
      ...secondStep,
      messages: [{ role: 'user', content: 'Another question.' }, CALLS, RESULTS],
    };
    const seeds = new Set(
      [genai, legacy, buildGoogleRequest(otherQuestion, GENAI, tools)].map((r) => r.parse.requestSeed),
    );
    expect(seeds.size).toBe(3);
    expect(buildGoogleRequest(firstStep, GENAI, tools).parse.requestSeed).not.toBe(genai.parse.requestSeed);
  });

  it('re-converts a tool message when the assistant turn before it is a different object', () => {
    const withoutProviderIds: Message = {
      role: 'assistant',
      content: [
        { type: 'tool_call', id: 'gemini-a-0', name: 'chercher_dossier', input: { numero: 'A-1234' } },
        { type: 'tool_call', id: 'call-b', name: 'lister_dossiers', input: {} },
      ],
    };
    const withIds = buildGoogleRequest(secondStep, GENAI, tools).body.contents[2];
    const withoutIds = buildGoogleRequest(
      { ...secondStep, messages: [CASE_FILE_USER, withoutProviderIds, RESULTS] },
      GENAI,
      tools,
    ).body.contents[2];
    expect(withIds?.parts[1]?.functionResponse).toHaveProperty('id', 'call-b');
    expect(withoutIds?.parts[1]?.functionResponse).not.toHaveProperty('id');
  });
});
