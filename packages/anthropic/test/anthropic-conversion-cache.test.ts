import type { Message, ModelRequest } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { buildAnthropicRequest } from '../src/build-anthropic-request.js';
import { CASE_FILE_MESSAGES, CASE_FILE_REQUEST } from './scenario.js';

const SETTINGS = { model: 'claude-test', maxTokens: 1024 };
const NEXT: readonly Message[] = [
  { role: 'assistant', content: [{ type: 'text', text: 'A-1234 is open; the list failed.' }] },
  { role: 'user', content: 'Try the list again.' },
];

// What the loop does between steps: a new array, the same message objects, one turn appended.
function nextStep(request: ModelRequest): ModelRequest {
  return { ...request, messages: [...request.messages, ...NEXT] };
}

describe('per-message conversion cache', () => {
  it('reuses the converted blocks of an earlier message in the next request', () => {
    const first = buildAnthropicRequest(CASE_FILE_REQUEST, SETTINGS).body;
    const second = buildAnthropicRequest(nextStep(CASE_FILE_REQUEST), SETTINGS).body;
    // Same block objects: the earlier messages were not converted again.
    expect(second.messages[1]?.content[0]).toBe(first.messages[1]?.content[0]);
    expect(second.messages[2]?.content[1]).toBe(first.messages[2]?.content[1]);
  });

  it('gives the same body as a conversion of fresh (never cached) message objects', () => {
    const request = nextStep(CASE_FILE_REQUEST);
    buildAnthropicRequest(CASE_FILE_REQUEST, SETTINGS);
    const cached = buildAnthropicRequest(request, SETTINGS).body;
    const fresh = buildAnthropicRequest({ ...request, messages: structuredClone(request.messages) }, SETTINGS).body;
    expect(cached).toEqual(fresh);
  });

  it('merging a user text after tool results never grows the cached tool_result turn', () => {
    const withUserAfterResults: ModelRequest = {
      ...CASE_FILE_REQUEST,
      messages: [...CASE_FILE_MESSAGES, { role: 'user', content: 'And quickly.' }],
    };
    const merged = buildAnthropicRequest(withUserAfterResults, SETTINGS).body;
    expect(merged.messages[2]?.content).toHaveLength(3);
    const alone = buildAnthropicRequest(CASE_FILE_REQUEST, SETTINGS).body;
    expect(alone.messages[2]?.content).toHaveLength(2);
    expect(buildAnthropicRequest(withUserAfterResults, SETTINGS).body).toEqual(merged);
  });
});
