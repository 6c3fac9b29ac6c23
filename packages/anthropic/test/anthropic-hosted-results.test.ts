// A server tool's result (web search, web fetch, code execution…) inside the response taints the calls the
// model makes after it in that response: the adapter marks it (`ModelTurn.untrustedContent`), through the
// official SDK against the replay server (synthetic cassettes shaped like the Messages API documentation).
import type { JsonValue } from '@toolcircuit/core';
import { createHostedResultScenario } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { json, message, replay, sse, syntheticCassette } from './replay.js';
import {
  blockStop,
  jsonDelta,
  messageDelta,
  messageStart,
  messageStop,
  textDelta,
  textStart,
} from './stream-events.js';

const scenario = () => createHostedResultScenario();

const search: JsonValue = {
  type: 'server_tool_use',
  id: 'srvtoolu_01',
  name: 'web_search',
  input: { query: 'Acme invoice' },
};

function searchResult(title: string): JsonValue {
  return {
    type: 'web_search_tool_result',
    tool_use_id: 'srvtoolu_01',
    content: [
      {
        type: 'web_search_result',
        url: 'https://acme-billing.example/invoice',
        title,
        encrypted_content: 'EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y2YSDMbBSLjwyNj',
        page_age: 'November 2, 2026',
      },
    ],
  };
}

function payCall(iban: string, amount: number): JsonValue {
  return { type: 'tool_use', id: 'toolu_pay', name: 'send_money', input: { iban, amount } };
}

function streamed(title: string, iban: string, amount: number): JsonValue[] {
  return [
    messageStart(),
    { type: 'content_block_start', index: 0, content_block: { ...(search as object), input: {} } as JsonValue },
    jsonDelta(0, '{"query": "Acme invoice"}'),
    blockStop(0),
    { type: 'content_block_start', index: 1, content_block: searchResult(title) },
    blockStop(1),
    textStart(2),
    textDelta(2, 'Found it; paying.'),
    blockStop(2),
    {
      type: 'content_block_start',
      index: 3,
      content_block: { type: 'tool_use', id: 'toolu_pay', name: 'send_money', input: {} },
    },
    jsonDelta(3, JSON.stringify({ iban, amount })),
    blockStop(3),
    messageDelta('tool_use'),
    messageStop,
  ];
}

describe.each(['generate', 'stream'] as const)('Anthropic server-tool results (%s)', (mode) => {
  it('hold the call the model made after a web search result in the same response; a pre-approval never serves it', async () => {
    const world = scenario();
    const { iban, amount } = world.payment;
    const first =
      mode === 'generate'
        ? json(
            message(
              [
                search,
                searchResult(world.pageText),
                { type: 'text', text: 'Found it; paying.' },
                payCall(iban, amount),
              ],
              'tool_use',
            ),
          )
        : sse(streamed(world.pageText, iban, amount));
    // The resume (resumeLoop) asks with generate() in both modes.
    const done = json(message([{ type: 'text', text: 'Paid.' }], 'end_turn'));
    const { model, server } = await replay(
      syntheticCassette('a hosted web search returns a page that asks for a payment; the model pays in the same turn', [
        first,
        done,
      ]),
    );
    const { first: paused, resumed, journal } = await world.run(model, mode);
    expect(server.mismatches).toEqual([]);
    expect(paused.status).toBe('paused');
    const request = paused.paused?.pending[0]?.request;
    expect(request?.untrustedSources).toEqual([
      expect.objectContaining({
        callId: 'srvtoolu_01',
        toolName: 'web_search_tool_result',
        hosted: true,
        precedes: ['toolu_pay'],
      }),
    ]);
    // The page's title named the IBAN: the human is shown it came from the search result.
    expect(request?.flaggedArguments.find((flag) => flag.path === '/iban')?.foundIn[0]?.callId).toBe('srvtoolu_01');
    // Values are looked for in its URL, title and date; its encrypted page is nothing anyone reads.
    const [marked] = paused.turns[0]?.untrustedContent ?? [];
    expect(marked).toMatchObject({ at: 0, kind: 'web_search_tool_result', id: 'srvtoolu_01' });
    expect(marked?.text).toContain('https://acme-billing.example/invoice');
    expect(marked?.text).not.toContain('EqgfCioI');
    // The mark travels with the assistant message, for a run that starts from this conversation.
    expect(paused.messages.at(-1)).toMatchObject({ role: 'assistant', untrustedContent: [marked] });
    // Approved by the human, shown the search result: it runs once, and the old approval is still unused.
    expect(resumed?.status).toBe('completed');
    expect(world.sent).toEqual([world.payment]);
    expect(world.confirmations.outstanding()).toHaveLength(1);
    expect(journal.entries.filter((entry) => entry.verdict === 'executed')).toHaveLength(1);
  });
});

describe('Anthropic server-tool results that are not outside content', () => {
  it('do not mark the tool search result (it lists the application’s own tools) or a server tool’s call', async () => {
    const world = scenario();
    const { iban, amount } = world.payment;
    const { model } = await replay(
      syntheticCassette('a tool search result then a call: nothing from outside the application', [
        json(
          message(
            [
              {
                type: 'server_tool_use',
                id: 'srvtoolu_ts',
                name: 'tool_search_tool_regex',
                input: { pattern: 'money' },
              },
              {
                type: 'tool_search_tool_result',
                tool_use_id: 'srvtoolu_ts',
                content: { type: 'tool_search_tool_search_result', tool_references: [] },
              },
              payCall(iban, amount),
            ],
            'tool_use',
          ),
        ),
        json(message([{ type: 'text', text: 'Paid.' }], 'end_turn')),
      ]),
    );
    const { first } = await world.run(model, 'generate');
    // The pre-approval of this exact payment serves it: nothing untrusted was in the run.
    expect(first.status).toBe('completed');
    expect(first.turns[0]?.untrustedContent).toBeUndefined();
    expect(world.sent).toEqual([world.payment]);
  });
});
