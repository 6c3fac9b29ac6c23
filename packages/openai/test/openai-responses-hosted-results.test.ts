// Hosted tools' output items (web search, file search, code interpreter, remote MCP) inside a Responses API
// response taint the calls the model makes after them in that response: the adapter marks them
// (`ModelTurn.untrustedContent`), through the official SDK against the replay server (synthetic cassettes
// shaped like the API reference's items).
import type { JsonValue } from '@toolcircuit/core';
import { createHostedResultScenario } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import {
  functionCallItem,
  jsonInteraction,
  messageItem,
  RESPONSES_PATH,
  responsesResponse,
  syntheticCassette,
  typedSseInteraction,
} from './support/cassettes.js';
import { withResponsesReplay } from './support/replay.js';

const webSearch: JsonValue = {
  type: 'web_search_call',
  id: 'ws_01',
  status: 'completed',
  action: { type: 'search', query: 'Acme invoice', sources: [{ type: 'url', url: 'https://acme-billing.example' }] },
};

function mcpCall(output: string): JsonValue {
  return {
    type: 'mcp_call',
    id: 'mcp_01',
    server_label: 'billing',
    name: 'fetch_invoice',
    arguments: '{"vendor":"Acme"}',
    output,
    error: null,
  };
}

/** A shell the provider ran in its own container, answered in the same response: its output is outside text. */
function hostedShell(page: string): JsonValue[] {
  return [
    {
      type: 'shell_call',
      id: 'sh_01',
      call_id: 'call_shell',
      status: 'completed',
      action: { commands: ['curl -s https://acme-billing.example/invoice'] },
    },
    {
      type: 'shell_call_output',
      id: 'sho_01',
      call_id: 'call_shell',
      output: [{ stdout: page, stderr: '', outcome: { type: 'exit', exit_code: 0 } }],
    },
  ];
}

/** An item of a kind no version of this adapter knows: kept as a provider part, and untrusted. */
function unknownItem(page: string): JsonValue {
  return { type: 'page_reader_call', id: 'prc_01', status: 'completed', result: { body: page } };
}

function interaction(mode: 'generate' | 'stream', output: JsonValue[]) {
  const response = responsesResponse({ output });
  if (mode === 'generate') return jsonInteraction(RESPONSES_PATH, response);
  // As the API streams it: each item added then done (a call's arguments in between), then the response.
  const created = { ...(response as Record<string, JsonValue>), status: 'in_progress', output: [], usage: null };
  const events: { type: string }[] = [{ type: 'response.created', sequence_number: 0, response: created } as never];
  for (const [index, item] of output.entries()) {
    const call = item as Record<string, JsonValue>;
    const started = call['type'] === 'function_call' ? { ...call, arguments: '', status: 'in_progress' } : item;
    events.push({ type: 'response.output_item.added', output_index: index, item: started } as never);
    if (call['type'] === 'function_call') {
      events.push({
        type: 'response.function_call_arguments.delta',
        output_index: index,
        item_id: call['id'],
        delta: call['arguments'],
      } as never);
    }
    events.push({ type: 'response.output_item.done', output_index: index, item } as never);
  }
  events.push({ type: 'response.completed', sequence_number: events.length, response } as never);
  return typedSseInteraction(RESPONSES_PATH, events);
}

describe.each(['generate', 'stream'] as const)('Responses hosted tool items (%s)', (mode) => {
  it.each([
    ['a web search', (_page: string): JsonValue[] => [webSearch], 'ws_01', 'web_search_call'],
    ['a remote MCP call', (page: string): JsonValue[] => [mcpCall(page)], 'mcp_01', 'mcp_call'],
    ['a shell run in the provider’s container', hostedShell, 'sho_01', 'shell_call_output'],
    ['an item of an unknown kind', (page: string): JsonValue[] => [unknownItem(page)], 'prc_01', 'page_reader_call'],
  ] as const)(
    'hold the call made after %s in the same response; a pre-approval never serves it',
    async (_what, item, id, kind) => {
      const world = createHostedResultScenario();
      const args = JSON.stringify(world.payment);
      const cassette = syntheticCassette('openai-responses', `${kind} output, then a payment in the same response`, [
        interaction(mode, [...item(world.pageText), functionCallItem('fc_1', 'call_pay', 'send_money', args)]),
        jsonInteraction(RESPONSES_PATH, responsesResponse({ output: [messageItem('msg_1', 'Paid.')] })),
      ]);
      const outcome = await withResponsesReplay(cassette, async (model, server) => {
        const run = await world.run(model, mode);
        expect(server.mismatches).toEqual([]);
        return run;
      });
      expect(outcome.first.status).toBe('paused');
      const request = outcome.first.paused?.pending[0]?.request;
      expect(request?.untrustedSources).toEqual([
        expect.objectContaining({ callId: id, toolName: kind, hosted: true, precedes: ['call_pay'] }),
      ]);
      if (kind !== 'web_search_call') {
        // The item's text named the IBAN: the human is shown where it came from.
        expect(request?.flaggedArguments.find((flag) => flag.path === '/iban')?.foundIn[0]?.callId).toBe(id);
      }
      expect(outcome.resumed?.status).toBe('completed');
      expect(world.sent).toEqual([world.payment]);
      expect(world.confirmations.outstanding()).toHaveLength(1);
    },
  );
});

describe('Responses items that carry no outside content', () => {
  it('leave a call after a plain message and reasoning to the ordinary rules', async () => {
    const world = createHostedResultScenario();
    const cassette = syntheticCassette('openai-responses', 'a message, then a payment: nothing hosted', [
      jsonInteraction(
        RESPONSES_PATH,
        responsesResponse({
          output: [
            messageItem('msg_0', 'Paying.'),
            functionCallItem('fc_1', 'call_pay', 'send_money', JSON.stringify(world.payment)),
          ],
        }),
      ),
      jsonInteraction(RESPONSES_PATH, responsesResponse({ output: [messageItem('msg_1', 'Paid.')] })),
    ]);
    const outcome = await withResponsesReplay(cassette, (model) => world.run(model, 'generate'));
    expect(outcome.first.status).toBe('completed');
    expect(outcome.first.turns[0]?.untrustedContent).toBeUndefined();
    expect(world.sent).toEqual([world.payment]);
  });
});
