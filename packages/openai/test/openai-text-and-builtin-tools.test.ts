import {
  createCatalogue,
  createSession,
  defineTextTool,
  defineTool,
  InMemoryConfirmations,
  InMemoryJournal,
  type JsonObject,
  resumeLoop,
  runLoop,
  streamLoop,
} from '@toolcircuit/core';
import { loadCassette, startReplayServer } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createOpenAIResponsesModel } from '../src/index.js';
import {
  CHAT_PATH,
  chatCompletion,
  jsonInteraction,
  messageItem,
  RESPONSES_PATH,
  responsesResponse,
  syntheticCassette,
} from './support/cassettes.js';
import { bodyOf, withChatReplay, withResponsesReplay } from './support/replay.js';

const SQL_GRAMMAR = { syntax: 'regex', definition: 'SELECT [a-z*, ]+ FROM [a-z_]+;' } as const;

function sqlTool(ran: string[]) {
  return defineTextTool({
    name: 'run_sql',
    description: 'Run one read-only SQL query.',
    grammar: SQL_GRAMMAR,
    right: 'sql:read',
    run: (query) => {
      ran.push(query);
      return '3 rows';
    },
  });
}

const session = (rights: string[], confirmations?: InMemoryConfirmations) =>
  createSession({ id: 's', humanId: 'alice', rights, ...(confirmations === undefined ? {} : { confirmations }) });

const customCall = (callId: string, input: string) => ({
  type: 'custom_tool_call',
  id: `ctc_${callId}`,
  call_id: callId,
  name: 'run_sql',
  input,
  status: 'completed',
});

describe('Responses: a text tool is a custom tool, through the four checks', () => {
  it('declares the grammar, runs a call that fits it, refuses one that does not, and answers with custom_tool_call_output', async () => {
    const ran: string[] = [];
    const journal = new InMemoryJournal();
    const cassette = syntheticCassette('openai-responses', 'two custom tool calls, then the answer', [
      jsonInteraction(
        RESPONSES_PATH,
        responsesResponse({
          output: [customCall('call_ok', 'SELECT * FROM users;'), customCall('call_bad', 'DROP TABLE users;')],
        }),
      ),
      jsonInteraction(RESPONSES_PATH, responsesResponse({ output: [messageItem('msg_2', 'Three users.')] })),
    ]);
    const result = await withResponsesReplay(cassette, async (model, server) => {
      const run = await runLoop({
        model,
        catalogue: createCatalogue([sqlTool(ran)]),
        session: session(['sql:read']),
        messages: [{ role: 'user', content: 'How many users?' }],
        journal,
      });
      expect((bodyOf(server, 0)['tools'] as JsonObject[])[0]).toEqual({
        type: 'custom',
        name: 'run_sql',
        description: 'Run one read-only SQL query.',
        format: { type: 'grammar', ...SQL_GRAMMAR },
      });
      const input = bodyOf(server, 1)['input'] as JsonObject[];
      expect(input.slice(1)).toEqual([
        {
          type: 'custom_tool_call',
          call_id: 'call_ok',
          name: 'run_sql',
          input: 'SELECT * FROM users;',
          id: 'ctc_call_ok',
        },
        {
          type: 'custom_tool_call',
          call_id: 'call_bad',
          name: 'run_sql',
          input: 'DROP TABLE users;',
          id: 'ctc_call_bad',
        },
        { type: 'custom_tool_call_output', call_id: 'call_ok', output: '3 rows' },
        {
          type: 'custom_tool_call_output',
          call_id: 'call_bad',
          output: expect.stringContaining('does not match its grammar'),
        },
      ]);
      return run;
    });
    expect(result.status).toBe('completed');
    expect(ran).toEqual(['SELECT * FROM users;']);
    expect(journal.entries.map((entry) => [entry.input, entry.verdict, entry.reason])).toEqual([
      ['SELECT * FROM users;', 'executed', undefined],
      ['DROP TABLE users;', 'refused', 'invalid_input'],
    ]);
  });

  it('streams the real recorded custom tool call: its text arrives in deltas and is the input the tool gets', async () => {
    const cassette = loadCassette('openai-responses/vercel-ai__openai-custom-text-tool.1.chunks');
    const server = await startReplayServer(cassette);
    try {
      const html: string[] = [];
      const setHtml = defineTextTool({
        name: 'setHtml',
        description: 'Return the requested HTML verbatim as freeform text.',
        right: 'page:write',
        run: (text) => {
          html.push(text);
          return 'set';
        },
      });
      const model = createOpenAIResponsesModel({
        model: 'gpt-5.2-codex',
        apiKey: 'k',
        baseURL: `${server.url}/v1`,
        maxRetries: 0,
      });
      const events = [];
      // One turn of the loop: the recording has no answer to the result, so the run stops after it.
      const stream = streamLoop({
        model,
        catalogue: createCatalogue([setHtml]),
        session: session(['page:write']),
        messages: [{ role: 'user', content: 'Write the page.' }],
        maxTurns: 1,
      });
      for await (const event of stream) events.push(event);
      const deltas = events.flatMap((event) => (event.type === 'tool-call-delta' ? [event.argumentsDelta] : []));
      expect(deltas.length).toBeGreaterThan(1);
      expect(html).toEqual([deltas.join('')]);
      expect(html[0]).toMatch(/^<main>/);
      expect((await stream.result).status).toBe('max_turns');
    } finally {
      await server.close();
    }
  });
});

describe('Responses: built-in tool types the application runs', () => {
  it('apply_patch: declared natively, an irreversible call waits for the human, then runs once and answers with apply_patch_call_output', async () => {
    const applied: unknown[] = [];
    const applyPatch = defineTool({
      name: 'apply_patch',
      description: 'Apply a patch to the workspace.',
      inputSchema: {
        type: 'object',
        properties: {
          type: { enum: ['create_file', 'update_file', 'delete_file'] },
          path: { type: 'string' },
          diff: { type: 'string' },
        },
        required: ['type', 'path'],
      },
      right: 'files:write',
      irreversible: true,
      builtin: { kind: 'apply_patch' },
      run: (operation) => {
        applied.push(operation);
        return 'Created shopping-checklist.md';
      },
    });
    // The first answer is the real recorded one; a synthetic second one ends the turn after the result.
    const recorded = loadCassette('openai-responses/vercel-ai__openai-apply-patch-tool.1');
    const cassette = syntheticCassette(
      'openai-responses',
      'the recorded apply_patch_call answer, then a final message',
      [
        ...recorded.interactions,
        jsonInteraction(RESPONSES_PATH, responsesResponse({ output: [messageItem('msg_2', 'Done.')] })),
      ],
    );
    const confirmations = new InMemoryConfirmations();
    await withResponsesReplay(
      cassette,
      async (model, server) => {
        const options = {
          model,
          catalogue: createCatalogue([applyPatch]),
          session: session(['files:write'], confirmations),
          confirmation: 'pause' as const,
        };
        const paused = await runLoop({ ...options, messages: [{ role: 'user', content: 'Make a checklist.' }] });
        expect(paused.status).toBe('paused');
        expect(applied).toEqual([]);
        expect((bodyOf(server, 0)['tools'] as JsonObject[])[0]).toEqual({ type: 'apply_patch' });
        const pending = paused.paused?.pending[0];
        expect(pending?.input).toMatchObject({ type: 'create_file', path: 'shopping-checklist.md' });
        const done = await resumeLoop(
          paused.paused ?? (undefined as never),
          [{ callId: pending?.callId ?? '', approved: true, inputDigest: pending?.inputDigest ?? '' }],
          options,
        );
        expect(done.status).toBe('completed');
        expect(applied).toHaveLength(1);
        const input = bodyOf(server, 1)['input'] as JsonObject[];
        expect(input[1]).toMatchObject({ type: 'apply_patch_call', call_id: 'call_CdXiGtcRl49Q6Ek20tG9lYOr' });
        expect(input[2]).toEqual({
          type: 'apply_patch_call_output',
          call_id: 'call_CdXiGtcRl49Q6Ek20tG9lYOr',
          status: 'completed',
          output: 'Created shopping-checklist.md',
        });
      },
      { model: 'gpt-5.1' },
    );
  });

  it('shell: a call without a catalogue tool of that type is refused (the application sees it) and answered as a failed command', async () => {
    const recorded = loadCassette('openai-responses/vercel-ai__openai-shell-tool.1');
    const cassette = syntheticCassette('openai-responses', 'the recorded shell_call answer, then a final message', [
      ...recorded.interactions,
      jsonInteraction(RESPONSES_PATH, responsesResponse({ output: [messageItem('msg_2', 'I cannot.')] })),
    ]);
    const journal = new InMemoryJournal();
    await withResponsesReplay(
      cassette,
      async (model, server) => {
        const result = await runLoop({
          model,
          catalogue: createCatalogue([sqlTool([])]),
          session: session(['sql:read']),
          messages: [{ role: 'user', content: 'List my desktop.' }],
          journal,
        });
        expect(result.status).toBe('completed');
        expect(journal.entries.map((entry) => [entry.toolName, entry.verdict, entry.reason])).toEqual([
          ['shell', 'refused', 'unknown_tool'],
        ]);
        const output = (bodyOf(server, 1)['input'] as JsonObject[]).find(
          (item) => item['type'] === 'shell_call_output',
        );
        expect(output).toMatchObject({
          call_id: 'call_udkLUvR8lWvG8cDO2B6GNpvZ',
          output: [{ stdout: '', stderr: expect.stringContaining('shell'), outcome: { type: 'exit', exit_code: 1 } }],
        });
      },
      { model: 'gpt-5.1' },
    );
  });
});

describe('Chat Completions: text tools', () => {
  const customCompletion = chatCompletion({ content: null, finishReason: 'tool_calls' }) as JsonObject;
  const choice = (customCompletion['choices'] as JsonObject[])[0] as JsonObject;
  (choice['message'] as JsonObject)['tool_calls'] = [
    { id: 'call_sql', type: 'custom', custom: { name: 'run_sql', input: 'SELECT * FROM users;' } },
  ];

  it('on OpenAI: a custom tool with its grammar; the call runs with its text and goes back as a custom call', async () => {
    const ran: string[] = [];
    const cassette = syntheticCassette('openai-chat', 'a custom tool call, then the answer', [
      jsonInteraction(CHAT_PATH, customCompletion),
      jsonInteraction(CHAT_PATH, chatCompletion({ content: 'Three.' })),
    ]);
    await withChatReplay(cassette, async (model, server) => {
      await runLoop({
        model,
        catalogue: createCatalogue([sqlTool(ran)]),
        session: session(['sql:read']),
        messages: [{ role: 'user', content: 'Count.' }],
      });
      expect((bodyOf(server, 0)['tools'] as JsonObject[])[0]).toEqual({
        type: 'custom',
        custom: {
          name: 'run_sql',
          description: 'Run one read-only SQL query.',
          format: { type: 'grammar', grammar: SQL_GRAMMAR },
        },
      });
      const messages = bodyOf(server, 1)['messages'] as JsonObject[];
      expect(messages[1]).toMatchObject({
        role: 'assistant',
        tool_calls: [{ id: 'call_sql', type: 'custom', custom: { name: 'run_sql', input: 'SELECT * FROM users;' } }],
      });
      expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_sql', content: '3 rows' });
    });
    expect(ran).toEqual(['SELECT * FROM users;']);
  });

  it('on a compatible server: a function with one string parameter, whose argument is the text', async () => {
    const ran: string[] = [];
    const cassette = syntheticCassette('openai-chat', 'the text tool called as a function, then the answer', [
      jsonInteraction(
        CHAT_PATH,
        chatCompletion({
          toolCalls: [{ id: 'call_sql', name: 'run_sql', arguments: '{"input":"SELECT * FROM users;"}' }],
        }),
      ),
      jsonInteraction(CHAT_PATH, chatCompletion({ content: 'Three.' })),
    ]);
    await withChatReplay(
      cassette,
      async (model, server) => {
        await runLoop({
          model,
          catalogue: createCatalogue([sqlTool(ran)]),
          session: session(['sql:read']),
          messages: [{ role: 'user', content: 'Count.' }],
        });
        const tool = (bodyOf(server, 0)['tools'] as JsonObject[])[0] as JsonObject;
        expect(tool['type']).toBe('function');
        expect((tool['function'] as JsonObject)['parameters']).toMatchObject({
          type: 'object',
          properties: { input: { type: 'string', description: expect.stringContaining(SQL_GRAMMAR.definition) } },
          required: ['input'],
        });
        const messages = bodyOf(server, 1)['messages'] as JsonObject[];
        expect(messages[1]).toMatchObject({
          tool_calls: [
            { type: 'function', function: { name: 'run_sql', arguments: '{"input":"SELECT * FROM users;"}' } },
          ],
        });
      },
      { provider: 'vllm' },
    );
    expect(ran).toEqual(['SELECT * FROM users;']);
  });
});

describe('the degradation is in the change log', () => {
  it('a text tool declared as a function says so (text-input-as-function)', async () => {
    const { prepareOpenAIChatTools } = await import('../src/openai-chat-prepare-tools.js');
    const prepared = prepareOpenAIChatTools(
      createCatalogue([sqlTool([])]).declarations,
      { strict: false, keepUndeclaredKeys: false },
      'vllm',
      false,
    );
    expect(prepared.toolSet.changes).toEqual([expect.objectContaining({ path: '', kind: 'text-input-as-function' })]);
  });
});
