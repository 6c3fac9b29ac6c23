import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSession, InMemoryJournal, runLoop } from '@toolcircuit/core';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcpServer, type McpConnection } from '../src/index.js';
import { memoryServer } from './reference-servers.js';

// The real @modelcontextprotocol/server-memory (a knowledge graph in a file), over stdio.
describe('importing server-memory', () => {
  let dir: string;
  let memory: McpConnection;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'toolcircuit-mcp-memory-'));
    memory = await connectMcpServer({ name: 'memory', server: memoryServer(join(dir, 'memory.jsonl')) });
  });
  afterAll(async () => {
    await memory?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates and reads at once (explicitly non-destructive), holds deletions for the human', async () => {
    const irreversible = Object.fromEntries(memory.tools().map((tool) => [tool.name, tool.irreversible]));
    expect(irreversible).toMatchObject({ create_entities: false, read_graph: false, delete_entities: true });

    const journal = new InMemoryJournal();
    const session = createSession({ id: 'sess-memory', humanId: 'alice', rights: ['mcp:memory'] });
    const entity = { name: 'Alice', entityType: 'person', observations: ['likes tea'] };
    const model = createScriptedModel([
      toolCallsTurn([{ id: 'create', name: 'create_entities', input: { entities: [entity] } }]),
      toolCallsTurn([
        { id: 'read', name: 'read_graph', input: {} },
        { id: 'delete', name: 'delete_entities', input: { entityNames: ['Alice'] } },
      ]),
      textTurn('done'),
    ]);
    const result = await runLoop({
      model,
      catalogue: memory.catalogue(),
      session,
      journal,
      confirmation: 'pause',
      messages: [{ role: 'user', content: 'Remember Alice, then forget her.' }],
    });
    expect(result.status).toBe('paused');
    expect(result.paused?.pending.map((call) => call.toolName)).toEqual(['delete_entities']);
    const reply = result.paused?.results[0];
    expect(reply?.content).toEqual([{ type: 'json', value: { entities: [entity], relations: [] } }]);
    // The deletion did not happen: Alice is still in the server's file.
    expect(await readFile(join(dir, 'memory.jsonl'), 'utf8')).toContain('"Alice"');
    // Journal order is settle order within a turn: compare sorted.
    expect(journal.entries.map((entry) => [entry.toolName, entry.verdict]).sort()).toEqual([
      ['create_entities', 'executed'],
      ['delete_entities', 'awaiting_confirmation'],
      ['read_graph', 'executed'],
    ]);
  });
});
