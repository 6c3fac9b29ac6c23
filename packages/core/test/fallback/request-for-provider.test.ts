// The rules by which a history written by several providers is sent to one of them (see requestForProvider).
import { describe, expect, it } from 'vitest';
import { requestForProvider, type TranslatedMessages } from '../../src/fallback/request-for-provider.js';
import { wireCallId } from '../../src/fallback/wire-call-id.js';
import { GEMINI_FOREIGN_CALL_SIGNATURE, type Message, type ModelRequest } from '../../src/index.js';
import { call } from '../support.js';

const user: Message = { role: 'user', content: 'go' };

/** Turn 1 by OpenAI Responses (a reasoning item, a call), turn 2 by Anthropic (thinking, a server block, a call). */
const history: Message[] = [
  user,
  {
    role: 'assistant',
    content: [
      {
        type: 'reasoning',
        text: '',
        providerMetadata: { openai: { item: { type: 'reasoning', id: 'rs_1', encrypted_content: 'x' } } },
      },
      call('call_a', 'lookup', { q: 1 }, { providerMetadata: { openai: { itemId: 'fc_1' } } }),
    ],
    providerMetadata: { openai: { responseId: 'resp_1' }, fallback: { provider: 'openai', modelId: 'o', member: 0 } },
  },
  {
    role: 'tool',
    content: [{ type: 'tool_result', callId: 'call_a', name: 'lookup', content: 'one', isError: false }],
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'think', providerMetadata: { anthropic: { signature: 'sig' } } },
      {
        type: 'provider',
        provider: 'anthropic',
        kind: 'server_tool_use',
        data: { type: 'server_tool_use', id: 'srv' },
      },
      call('odd id:1', 'lookup', { q: 2 }),
    ],
    providerMetadata: { anthropic: { serverBlocks: [] } },
  },
  {
    role: 'tool',
    content: [{ type: 'tool_result', callId: 'odd id:1', name: 'lookup', content: 'two', isError: false }],
  },
];

const request = (messages: readonly Message[], providerOptions?: ModelRequest['providerOptions']): ModelRequest => ({
  messages,
  tools: [],
  ...(providerOptions === undefined ? {} : { providerOptions }),
});

const translate = (provider: string, sent: ModelRequest) => requestForProvider(provider, sent, new Map());

describe('a mixed history sent to one provider', () => {
  it('to Gemini: no foreign reasoning, parts or metadata; the first call of each foreign turn carries the placeholder', () => {
    const sent = translate('google', request(history)).messages;
    expect(sent[1]).toEqual({
      role: 'assistant',
      content: [
        call(
          'call_a',
          'lookup',
          { q: 1 },
          { providerMetadata: { google: { thoughtSignature: GEMINI_FOREIGN_CALL_SIGNATURE } } },
        ),
      ],
      // The list's own mark of who answered stays: the circuit's, read by no adapter.
      providerMetadata: { fallback: { provider: 'openai', modelId: 'o', member: 0 } },
    });
    expect(sent[3]?.role === 'assistant' && sent[3].content).toEqual([
      call(
        wireCallId('odd id:1'),
        'lookup',
        { q: 2 },
        {
          providerMetadata: { google: { thoughtSignature: GEMINI_FOREIGN_CALL_SIGNATURE } },
        },
      ),
    ]);
  });

  it('an id some API refuses is rewritten alike in its call and its result; a portable one is kept', () => {
    const sent = translate('openai', request(history)).messages;
    const id = wireCallId('odd id:1');
    expect(id).toMatch(/^call_[0-9a-f]{16}$/);
    expect(
      sent[3]?.role === 'assistant' && sent[3].content.map((part) => part.type === 'tool_call' && part.id),
    ).toEqual([id]);
    expect(sent[4]?.role === 'tool' && sent[4].content[0]?.callId).toBe(id);
    expect(sent[2]).toBe(history[2]);
  });

  it("to OpenAI: its own reasoning item and ids stay, Anthropic's thinking and blocks go", () => {
    const sent = translate('openai', request(history)).messages;
    // Its own entry stays, and so does the list's mark of who answered (the circuit's, read by no adapter).
    expect(sent[1]).toBe(history[1]);
    expect(sent[3]?.role === 'assistant' && sent[3].content.map((part) => part.type)).toEqual(['tool_call']);
    expect(sent[3]?.role === 'assistant' && sent[3].providerMetadata).toBeUndefined();
  });

  it('to Anthropic: its own thinking and server block stay; thinking is turned off while the tool loop holds an unsigned call turn', () => {
    const thinking = { anthropic: { thinking: { type: 'enabled', budget_tokens: 2048 }, effort: 'high' } };
    const sent = translate('anthropic', request(history, thinking));
    expect(sent.messages[3]?.role === 'assistant' && sent.messages[3].content.map((part) => part.type)).toEqual([
      'reasoning',
      'provider',
      'tool_call',
    ]);
    expect(sent.providerOptions).toEqual({ anthropic: { effort: 'high' } });
    // After a user message the tool loop is closed: thinking stays on.
    const closed = translate(
      'anthropic',
      request([...history, { role: 'assistant', content: [{ type: 'text', text: 'done' }] }, user], thinking),
    );
    expect(closed.providerOptions).toBe(thinking);
  });

  it('a history of the receiving provider alone is sent as it is (the same request), and translations are reused', () => {
    const own = request([
      user,
      {
        role: 'assistant',
        content: [call('toolu_1', 'lookup', {}, { providerMetadata: { anthropic: { caller: 'direct' } } })],
      },
    ]);
    expect(translate('anthropic', own)).toBe(own);
    const cache: TranslatedMessages = new Map();
    const once = requestForProvider('google', request(history), cache);
    const twice = requestForProvider('google', request(history), cache);
    expect(twice.messages[3]).toBe(once.messages[3]);
  });

  it('a request that extends the last one is sent as if translated whole, even when the caller changed its list in place', () => {
    const cache: TranslatedMessages = new Map();
    const growing: Message[] = [...history.slice(0, 2)];
    const each = (): ModelRequest => requestForProvider('google', request(growing), cache);
    expect(each().messages).toEqual(translate('google', request(growing)).messages);
    // The caller appends to the very list it sent: the new messages are translated too.
    growing.push(...history.slice(2));
    expect(each().messages).toEqual(translate('google', request(growing)).messages);
    // And replaces one in place (a context policy's cleared result, a repaired turn): that one is sent anew.
    growing[1] = { role: 'assistant', content: [call('call_b', 'lookup', { q: 2 })] };
    expect(each().messages).toEqual(translate('google', request(growing)).messages);
    // A shorter list (another conversation) starts over.
    expect(each().messages).toEqual(translate('google', request(growing)).messages);
    const other = [user];
    expect(requestForProvider('google', request(other), cache).messages).toEqual(other);
  });
});
