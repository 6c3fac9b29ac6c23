// The check the fallback pairs rely on must be able to fail: a request carrying what only another provider
// reads, or results that lost their pairing, is reported.
import { GEMINI_FOREIGN_CALL_SIGNATURE } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { type ExpectedCall, foreignHistoryProblems } from '../src/index.js';

const calls: ExpectedCall[] = [{ id: 'toolu_1', name: 'consulter', result: 'invoice R-1' }];

const chat = (assistantExtra: Record<string, unknown>, toolCallId = 'toolu_1') => ({
  messages: [
    { role: 'user', content: 'go' },
    {
      role: 'assistant',
      tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'consulter', arguments: '{"ref":"R-1"}' } }],
      ...assistantExtra,
    },
    { role: 'tool', tool_call_id: toolCallId, content: 'invoice R-1: 120' },
  ],
});

describe('foreignHistoryProblems', () => {
  it('accepts a request in the receiving API’s shape', () => {
    expect(foreignHistoryProblems('openai-chat', 'anthropic-messages', chat({}), calls)).toEqual([]);
  });

  it('reports a signature, encrypted reasoning or a thought signature sent to another API', () => {
    const body = chat({
      content: [{ type: 'thinking', signature: 's' }],
      encrypted_content: 'e',
      thoughtSignature: 't',
    });
    expect(foreignHistoryProblems('openai-chat', 'anthropic-messages', body, calls)).toEqual([
      'the request holds Anthropic thinking block',
      'the request holds Anthropic signature',
      'the request holds OpenAI encrypted reasoning',
      'the request holds a Gemini thought signature',
    ]);
  });

  it('reports a result that answers another call', () => {
    expect(foreignHistoryProblems('openai-chat', 'anthropic-messages', chat({}, 'other'), calls)).toEqual([
      'message 0 after the assistant turn is not the tool message of toolu_1',
    ]);
  });

  it('on Gemini: the first call of a foreign turn carries the placeholder signature, and only it', () => {
    const gemini = (signature?: string) => ({
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        {
          role: 'model',
          parts: [
            {
              functionCall: { name: 'consulter', args: {} },
              ...(signature === undefined ? {} : { thoughtSignature: signature }),
            },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'consulter', response: { output: 'invoice R-1' } } }] },
      ],
    });
    expect(foreignHistoryProblems('gemini', 'openai-chat', gemini(GEMINI_FOREIGN_CALL_SIGNATURE), calls)).toEqual([]);
    expect(foreignHistoryProblems('gemini', 'openai-chat', gemini(), calls)).toEqual([
      'the first functionCall carries thoughtSignature undefined',
    ]);
  });
});
