import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/index.js';
import { callIdsOf, growingCallIdsOf } from '../../src/loop/unique-call-ids.js';

const callMessage = (id: string): Message => ({
  role: 'assistant',
  content: [{ type: 'tool_call', id, name: 'echo', input: {} }],
});
const resultMessage = (id: string): Message => ({
  role: 'tool',
  content: [{ type: 'tool_result', callId: id, name: 'echo', content: 'ok', isError: false }],
});

describe('growingCallIdsOf', () => {
  it('holds what callIdsOf holds as the history grows, reading only the new messages', () => {
    const messages: Message[] = [{ role: 'user', content: 'hi' }, callMessage('a'), resultMessage('a')];
    expect([...growingCallIdsOf(messages)]).toEqual(['a']);
    messages.push(callMessage('b'), resultMessage('b'));
    expect(growingCallIdsOf(messages)).toEqual(callIdsOf(messages));
    expect(growingCallIdsOf(messages).has('b')).toBe(true);
  });

  it('reads a list again from the start when it shrank or its counted messages changed', () => {
    const messages: Message[] = [callMessage('a'), callMessage('b')];
    growingCallIdsOf(messages);
    messages.length = 1;
    expect([...growingCallIdsOf(messages)]).toEqual(['a']);
    messages[0] = callMessage('c');
    expect([...growingCallIdsOf(messages)]).toEqual(['c']);
  });
});
