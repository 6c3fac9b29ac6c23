// prepareStep, per-tool features and hosted tools on the Messages API wire: runLoop through the official SDK
// against the replay server (synthetic cassette), asserting the request bodies the server received.
import {
  hostedTool,
  InMemoryJournal,
  type JsonValue,
  type LoopStreamEvent,
  runLoop,
  streamLoop,
} from '@toolcircuit/core';
import { createPerStepScenario } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { json, message, replay, sse, syntheticCassette } from './replay.js';

const { catalogue, session, messages, prepareStep: plan, call, answer } = createPerStepScenario();
const lookupSchema = catalogue.get('lookup')?.declaration.inputSchema;

const replies = [
  message([{ type: 'tool_use', id: 'toolu_1', ...call }], 'tool_use'),
  message([{ type: 'tool_use', id: 'toolu_2', ...call }], 'tool_use'),
  message([{ type: 'text', text: answer }], 'end_turn'),
];

type Body = {
  tools?: { name?: string; type?: string; [key: string]: unknown }[];
  tool_choice?: unknown;
  system?: unknown;
  messages: { role: string; content: unknown }[];
};

function checkWire(bodies: Body[]): void {
  expect(bodies).toHaveLength(3);
  const [one, two, three] = bodies as [Body, Body, Body];
  expect(one.tools).toEqual([
    {
      name: 'lookup',
      description: 'Look up a case file by its number.',
      input_schema: lookupSchema,
      strict: true,
      input_examples: [{ numero: 'A-1234' }],
    },
    { type: 'web_search_20250305', name: 'web_search', max_uses: 2, cache_control: { type: 'ephemeral' } },
  ]);
  expect(one.tool_choice).toEqual({ type: 'tool', name: 'lookup' });
  expect(two.tools?.map((tool) => tool.name)).toEqual(['summarise', 'web_search']);
  expect(two.tools?.[0]?.['cache_control']).toEqual({ type: 'ephemeral' });
  // Only this provider's entry of the tool's options: OpenAI's and Gemini's are not sent here.
  expect(Object.keys(two.tools?.[0] ?? {}).sort()).toEqual(['cache_control', 'description', 'input_schema', 'name']);
  expect(two.tool_choice).toEqual({ type: 'any' });
  expect(three.tools?.map((tool) => tool.name)).toEqual(['summarise', 'web_search']);
  expect(three.tool_choice).toEqual({ type: 'none' });
  expect(JSON.stringify(three.system)).toContain('Answer now.');
  // The refusal of the call to the tool that step 2 did not offer went back to the model.
  const refusal = JSON.stringify(three.messages.at(-1));
  expect(refusal).toContain('is not available at this step');
  expect(refusal).toContain('Tools available now: summarise');
}

describe('per-step control on the Anthropic wire', () => {
  it('runLoop: prepareStep changes the tools and the tool choice between steps; an inactive call is refused', async () => {
    const { model, server } = await replay(
      syntheticCassette(
        'per-step tools and tool choice',
        replies.map((reply) => json(reply)),
      ),
    );
    const journal = new InMemoryJournal();
    const result = await runLoop({
      model,
      catalogue,
      session,
      messages,
      journal,
      prepareStep: plan,
      hostedTools: [hostedTool('web_search', { maxUses: 2 })],
      cacheTools: true,
    });
    expect(server.mismatches).toEqual([]);
    expect(result.status).toBe('completed');
    checkWire(server.received.map((received) => received.body as Body));
    expect(journal.entries.map((entry) => [entry.verdict, entry.reason, entry.step?.activeTools])).toEqual([
      ['executed', undefined, ['lookup']],
      ['refused', 'inactive_tool', ['summarise']],
    ]);
  });

  it('streamLoop: the same steps on the streaming wire, the plan on each turn-start', async () => {
    const streamed = replies.map((reply) => {
      const { content, stop_reason, ...rest } = reply as { content: unknown[]; stop_reason: string };
      const events: JsonValue[] = [
        { type: 'message_start', message: { ...rest, content: [], stop_reason: null } },
        ...content.flatMap((block, index): JsonValue[] => {
          const typed = block as { type: string; input?: unknown; text?: string };
          if (typed.type === 'tool_use') {
            return [
              { type: 'content_block_start', index, content_block: { ...typed, input: {} } },
              {
                type: 'content_block_delta',
                index,
                delta: { type: 'input_json_delta', partial_json: JSON.stringify(typed.input) },
              },
              { type: 'content_block_stop', index },
            ];
          }
          return [
            { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
            { type: 'content_block_delta', index, delta: { type: 'text_delta', text: typed.text ?? '' } },
            { type: 'content_block_stop', index },
          ];
        }),
        { type: 'message_delta', delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: 5 } },
        { type: 'message_stop' },
      ];
      return sse(events);
    });
    const { model, server } = await replay(syntheticCassette('per-step tools and tool choice, streamed', streamed));
    const plans: unknown[] = [];
    const stream = streamLoop({
      model,
      catalogue,
      session,
      messages,
      prepareStep: plan,
      hostedTools: [hostedTool('web_search', { maxUses: 2 })],
      cacheTools: true,
    });
    for await (const event of stream as AsyncIterable<LoopStreamEvent>) {
      if (event.type === 'turn-start') plans.push(event.plan?.toolChoice);
    }
    expect(server.mismatches).toEqual([]);
    expect((await stream.result).status).toBe('completed');
    expect(plans).toEqual([{ type: 'tool', name: 'lookup' }, 'required', 'none']);
    checkWire(server.received.map((received) => received.body as Body));
  });
});
