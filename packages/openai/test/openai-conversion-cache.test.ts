import type { Message, ModelRequest } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { type ChatConversionOptions, convertToOpenAIChatMessages } from '../src/convert-to-openai-chat-messages.js';
import {
  convertToOpenAIResponsesMessages,
  type ResponsesConversionOptions,
} from '../src/convert-to-openai-responses-messages.js';
import { caseFileRequest } from './support/scenario.js';

const NEXT: readonly Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'assistant', content: [{ type: 'text', text: 'A-1234 is open; the list timed out.' }] },
  { role: 'user', content: 'Try the list again.' },
];

// What the loop does between steps: a new array, the same message objects, one turn appended.
function nextStep(request: ModelRequest): ModelRequest {
  return { ...request, messages: [...request.messages, ...NEXT] };
}

function fresh(request: ModelRequest): ModelRequest {
  return { ...request, messages: structuredClone(request.messages) };
}

// `namingKey` identifies the name mapping (a tool name map's `key`): the identity here, `x_` + name below.
const CHAT: ChatConversionOptions = { systemRole: 'system', toProviderName: (name) => name, namingKey: '[]' };
const RESPONSES: ResponsesConversionOptions = {
  provider: 'openai',
  toProviderName: (name) => name,
  namingKey: '[]',
};
const PREFIXED = { toProviderName: (name: string) => `x_${name}`, namingKey: 'x_ prefix' };

describe('Chat Completions per-message conversion cache', () => {
  it('reuses the converted messages of earlier turns in the next request', () => {
    const first = convertToOpenAIChatMessages(caseFileRequest(), CHAT);
    const second = convertToOpenAIChatMessages(nextStep(caseFileRequest()), CHAT);
    expect(second[2]).toBe(first[2]);
    expect(second[4]).toBe(first[4]);
  });

  it('gives the same messages as a conversion of fresh (never cached) message objects', () => {
    const request = nextStep(caseFileRequest());
    convertToOpenAIChatMessages(request, CHAT);
    expect(convertToOpenAIChatMessages(request, CHAT)).toEqual(convertToOpenAIChatMessages(fresh(request), CHAT));
  });

  it('converts again when an option the message depends on changes', () => {
    const request = nextStep(caseFileRequest());
    convertToOpenAIChatMessages(request, CHAT);
    const developer = convertToOpenAIChatMessages(request, { ...CHAT, systemRole: 'developer' });
    expect(developer[5]).toEqual({ role: 'developer', content: 'Be brief.' });
    const renamed = convertToOpenAIChatMessages(request, { ...CHAT, ...PREFIXED });
    expect(renamed[2]).toMatchObject({ tool_calls: [{ function: { name: 'x_chercher_dossier' } }, {}] });
    expect(convertToOpenAIChatMessages(request, CHAT)).toEqual(convertToOpenAIChatMessages(fresh(request), CHAT));
  });
});

describe('Responses per-message conversion cache', () => {
  it('reuses the converted items of earlier turns in the next request', () => {
    const first = convertToOpenAIResponsesMessages(caseFileRequest(), RESPONSES).input;
    const second = convertToOpenAIResponsesMessages(nextStep(caseFileRequest()), RESPONSES).input;
    expect(second.slice(0, first.length)).toEqual(first);
    for (const [index, item] of first.entries()) expect(second[index]).toBe(item);
  });

  it('gives the same input as a conversion of fresh (never cached) message objects', () => {
    const request = nextStep(caseFileRequest());
    convertToOpenAIResponsesMessages(request, RESPONSES);
    expect(convertToOpenAIResponsesMessages(request, RESPONSES)).toEqual(
      convertToOpenAIResponsesMessages(fresh(request), RESPONSES),
    );
    const renamed = convertToOpenAIResponsesMessages(request, { ...RESPONSES, ...PREFIXED });
    expect(renamed.input[2]).toMatchObject({ type: 'function_call', name: 'x_chercher_dossier' });
  });
});
