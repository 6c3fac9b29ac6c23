import {
  createCatalogue,
  createSession,
  defineTextTool,
  defineTool,
  InMemoryJournal,
  type JsonObject,
  runLoop,
} from '@toolcircuit/core';
import { followUpRequest, loadCassette, type ReplayServer, startReplayServer } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { prepareAnthropicTools } from '../src/anthropic-prepare-tools.js';
import { createAnthropicModel } from '../src/index.js';
import { json, message, replay, syntheticCassette } from './replay.js';

const session = createSession({ id: 's', humanId: 'alice', rights: ['shell:run', 'files:edit', 'sql:read'] });

const ran: { tool: string; input: unknown }[] = [];
const shell = defineTool({
  name: 'shell',
  description: 'Run a shell command in the sandbox.',
  inputSchema: {
    type: 'object',
    properties: { command: { type: 'string' }, restart: { type: 'boolean' } },
    additionalProperties: false,
  },
  right: 'shell:run',
  builtin: { kind: 'shell' },
  run: (input) => {
    ran.push({ tool: 'shell', input });
    return 'README.md';
  },
});
const editor = defineTool({
  name: 'edit_files',
  description: 'View and edit files.',
  inputSchema: {
    type: 'object',
    properties: { command: { enum: ['view', 'create', 'str_replace', 'insert'] }, path: { type: 'string' } },
    required: ['command', 'path'],
  },
  right: 'files:edit',
  builtin: { kind: 'text_editor' },
  run: (input) => {
    ran.push({ tool: 'edit_files', input });
    return '# Title';
  },
});
const sql = defineTextTool({
  name: 'run_sql',
  description: 'Run one SQL query.',
  grammar: { syntax: 'regex', definition: 'SELECT .+;' },
  right: 'sql:read',
  run: (query) => {
    ran.push({ tool: 'run_sql', input: query });
    return '3 rows';
  },
});

describe('Anthropic: built-in tool types and text tools', () => {
  it('declares bash and the text editor natively, maps their calls to the catalogue tools, and runs them through the checks', async () => {
    ran.length = 0;
    const journal = new InMemoryJournal();
    const cassette = syntheticCassette(
      'calls of the native bash and text editor tools and of a text tool, then an answer',
      [
        json(
          message(
            [
              { type: 'tool_use', id: 'toolu_bash', name: 'bash', input: { command: 'ls' } },
              {
                type: 'tool_use',
                id: 'toolu_edit',
                name: 'str_replace_based_edit_tool',
                input: { command: 'view', path: 'README.md' },
              },
              { type: 'tool_use', id: 'toolu_sql', name: 'run_sql', input: { input: 'SELECT * FROM users;' } },
            ],
            'tool_use',
          ),
        ),
        json(message([{ type: 'text', text: 'Done.' }], 'end_turn')),
      ],
    );
    const { model, server } = await replay(cassette);
    const result = await runLoop({
      model,
      catalogue: createCatalogue([shell, editor, sql]),
      session,
      messages: [{ role: 'user', content: 'Look around.' }],
      journal,
    });
    expect(result.status).toBe('completed');
    const tools = sentBody(server, 0)['tools'] as JsonObject[];
    expect(tools[0]).toEqual({ type: 'bash_20250124', name: 'bash' });
    expect(tools[1]).toEqual({ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' });
    expect(tools[2]).toMatchObject({
      name: 'run_sql',
      input_schema: { properties: { input: { type: 'string' } }, required: ['input'] },
    });
    expect(ran).toEqual([
      { tool: 'shell', input: { command: 'ls' } },
      { tool: 'edit_files', input: { command: 'view', path: 'README.md' } },
      { tool: 'run_sql', input: 'SELECT * FROM users;' },
    ]);
    expect(journal.entries.map((entry) => [entry.toolName, entry.verdict])).toEqual([
      ['shell', 'executed'],
      ['edit_files', 'executed'],
      ['run_sql', 'executed'],
    ]);
    // The history calls them by their native names again, and the text tool with its one parameter.
    const history = sentBody(server, 1)['messages'] as { content: JsonObject[] }[];
    expect(history[1]?.content.map((block) => [block['name'], block['input']])).toEqual([
      ['bash', { command: 'ls' }],
      ['str_replace_based_edit_tool', { command: 'view', path: 'README.md' }],
      ['run_sql', { input: 'SELECT * FROM users;' }],
    ]);
  });

  it('a computer tool goes with its display size; the degradation and the native names are in the change log', () => {
    const computer = defineTool({
      name: 'desktop',
      description: 'Control the desktop.',
      inputSchema: { type: 'object' },
      right: 'x',
      builtin: { kind: 'computer', display: { width: 1280, height: 800 } },
      run: () => 'ok',
    });
    const prepared = prepareAnthropicTools(createCatalogue([computer, sql]).declarations);
    expect(prepared.tools[0]).toEqual({
      type: 'computer_20250124',
      name: 'computer',
      display_width_px: 1280,
      display_height_px: 800,
    });
    expect(prepared.changes.map((change) => change.kind)).toEqual(['renamed', 'text-input-as-function']);
    expect(prepared.names.fromProvider('computer')).toBe('desktop');
  });

  it('refuses two tools the model would call by one name', () => {
    const bash = defineTool({
      name: 'bash',
      description: 'd',
      inputSchema: { type: 'object' },
      right: 'x',
      run: () => 'ok',
    });
    expect(() => prepareAnthropicTools(createCatalogue([shell, bash]).declarations)).toThrow(
      /would both be called "bash"/,
    );
  });
});

describe('Anthropic: citations go back with their text', () => {
  it('the real web search answer: its cited texts are sent back with their citations (encrypted index included)', async () => {
    const recorded = loadCassette('anthropic/vercel-ai__anthropic-web-search-tool.1');
    const cassette = syntheticCassette('the recorded web search answer, then an answer to the follow-up', [
      ...recorded.interactions.map((interaction) => interaction.response),
      json(message([{ type: 'text', text: 'Yes.' }], 'end_turn')),
    ]);
    const server = await startReplayServer(cassette);
    try {
      const model = createAnthropicModel({
        model: 'claude-sonnet-4-6',
        apiKey: 'k',
        baseURL: server.url,
        maxRetries: 0,
      });
      const ask = { messages: [{ role: 'user' as const, content: 'What happened?' }], tools: [] };
      const turn = await model.generate(ask);
      await model.generate(followUpRequest(ask, turn, 'Sure?'));
      const body = recorded.interactions[0]?.response.body;
      const recordedBlocks = body?.kind === 'json' ? ((body.json as JsonObject)['content'] as JsonObject[]) : [];
      const sent = (sentBody(server, 1)['messages'] as { content: JsonObject[] }[])[1]?.content ?? [];
      const cited = (blocks: JsonObject[]) =>
        blocks.filter(
          (block) => block['type'] === 'text' && Array.isArray(block['citations']) && block['citations'].length > 0,
        );
      expect(cited(sent)).toEqual(
        cited(recordedBlocks).map(({ type, text, citations }) => ({ type, text, citations })),
      );
      expect(cited(sent).length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

/** The body of the request the replay server received at `index`. */
function sentBody(server: ReplayServer, index: number): JsonObject {
  const body = server.received[index]?.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error(`no request #${index}`);
  return body as JsonObject;
}
