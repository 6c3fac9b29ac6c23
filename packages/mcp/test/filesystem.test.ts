import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  argumentDigest,
  createCatalogue,
  createSession,
  InMemoryConfirmations,
  InMemoryJournal,
  resumeLoop,
  runLoop,
  toolResultText,
} from '@toolcircuit/core';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcpServer, type McpConnection, type McpToolDefinition } from '../src/index.js';
import { filesystemServer } from './reference-servers.js';

// The real @modelcontextprotocol/server-filesystem, on a temporary folder, over stdio.
describe('importing server-filesystem', () => {
  let dir: string;
  let fs: McpConnection;

  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'toolcircuit-mcp-fs-')));
    await writeFile(join(dir, 'notes.txt'), 'first line\n');
    fs = await connectMcpServer({ name: 'fs', server: filesystemServer(dir) });
  });
  afterAll(async () => {
    await fs?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('maps annotations to policy: read-only tools run freely, every write tool is irreversible', () => {
    const byName = new Map(fs.tools().map((tool) => [tool.name, tool] as const));
    for (const name of ['read_text_file', 'list_directory', 'get_file_info', 'search_files']) {
      expect(byName.get(name)?.irreversible, name).toBe(false);
    }
    for (const name of ['write_file', 'edit_file', 'move_file'])
      expect(byName.get(name)?.irreversible, name).toBe(true);
    // create_directory says destructiveHint: false explicitly.
    expect(byName.get('create_directory')?.irreversible).toBe(false);
    for (const tool of byName.values()) {
      expect(tool.right).toBe('mcp:fs');
      expect(tool.mcp.untrustedOutput).toBe(false); // the server says openWorldHint: false for all of them
      expect(tool.mcp.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      expect(tool.search?.namespace).toBe('fs'); // the tool search can be restricted to this server
    }
    // Deferred, the server's tools are found by the catalogue's search, within the server's namespace.
    const deferred = createCatalogue(fs.tools(), { defer: true });
    expect(deferred.toolSearch?.namespaces).toEqual(['fs']);
    expect(deferred.toolSearch?.search('move or rename a file', 1, { namespace: 'fs' })[0]?.name).toBe('move_file');
  });

  it('lists and reads at once, pauses writes for approval, runs an approved write exactly once with its arguments', async () => {
    const journal = new InMemoryJournal();
    const session = createSession({
      id: 'sess-fs',
      humanId: 'alice',
      rights: ['mcp:fs'],
      confirmations: fs.guardConfirmations(new InMemoryConfirmations()),
    });
    const target = join(dir, 'summary.txt');
    const writeInput = { path: target, content: 'summary: first line\n' };
    const moveInput = { source: join(dir, 'notes.txt'), destination: join(dir, 'archived.txt') };
    const model = createScriptedModel([
      toolCallsTurn([
        { id: 'ls', name: 'list_directory', input: { path: dir } },
        { id: 'read', name: 'read_text_file', input: { path: join(dir, 'notes.txt') } },
      ]),
      toolCallsTurn([
        { id: 'write', name: 'write_file', input: writeInput },
        { id: 'move', name: 'move_file', input: moveInput },
      ]),
      // After the human's decisions the model tries the write again with other content: not covered.
      toolCallsTurn([{ id: 'write-again', name: 'write_file', input: { path: target, content: 'something else' } }]),
      textTurn('Done.'),
    ]);
    const catalogue = fs.catalogue();

    const paused = await runLoop({
      model,
      catalogue,
      session,
      journal,
      confirmation: 'pause',
      messages: [{ role: 'user', content: 'Summarise notes.txt into summary.txt and archive it.' }],
    });
    expect(paused.status).toBe('paused');
    const firstReply = paused.messages.find((message) => message.role === 'tool');
    if (firstReply?.role !== 'tool') throw new Error('expected a tool reply');
    // Both tools declare an outputSchema: their validated structuredContent comes back as one JSON part.
    expect(firstReply.content.map((part) => part.content)).toEqual([
      [{ type: 'json', value: { content: expect.stringContaining('[FILE] notes.txt') } }],
      [{ type: 'json', value: { content: 'first line\n' } }],
    ]);
    // Nothing written, nothing moved while the human decides.
    await expect(readFile(target, 'utf8')).rejects.toThrow(/ENOENT/);
    await expect(readFile(join(dir, 'notes.txt'), 'utf8')).resolves.toBe('first line\n');
    if (paused.paused === undefined) throw new Error('expected a paused run');
    expect(paused.paused.pending.map((call) => [call.toolName, call.input])).toEqual([
      ['write_file', writeInput],
      ['move_file', moveInput],
    ]);

    const resumed = await resumeLoop(
      paused.paused,
      [
        { callId: 'write', approved: true, inputDigest: argumentDigest(writeInput) },
        { callId: 'move', approved: false, note: 'Keep notes.txt where it is.' },
      ],
      { model, catalogue, session, journal, confirmation: 'pause' },
    );
    // The retried write with other content is held again, not run under the first approval.
    expect(resumed.status).toBe('paused');
    expect(resumed.paused?.pending.map((call) => call.callId)).toEqual(['write-again']);
    await expect(readFile(target, 'utf8')).resolves.toBe(writeInput.content);
    await expect(readFile(join(dir, 'notes.txt'), 'utf8')).resolves.toBe('first line\n');
    await expect(readFile(join(dir, 'archived.txt'), 'utf8')).rejects.toThrow(/ENOENT/);

    const trail = journal.entries.map((entry) => [entry.callId, entry.toolName, entry.verdict, entry.reason ?? null]);
    // Journal order is settle order (a refusal settles before a running call): compare as a set, and count.
    expect(trail).toHaveLength(7);
    expect(trail).toEqual(
      expect.arrayContaining([
        ['ls', 'list_directory', 'executed', null],
        ['read', 'read_text_file', 'executed', null],
        ['write', 'write_file', 'awaiting_confirmation', null],
        ['move', 'move_file', 'awaiting_confirmation', null],
        ['write', 'write_file', 'executed', null],
        ['move', 'move_file', 'refused', 'confirmation_denied'],
        ['write-again', 'write_file', 'awaiting_confirmation', null],
      ]),
    );
    const writes = journal.entries.filter((entry) => entry.toolName === 'write_file' && entry.verdict === 'executed');
    expect(writes).toHaveLength(1);
    expect(writes[0]?.input).toEqual(writeInput);
    expect(writes[0]?.inputDigest).toBe(argumentDigest(writeInput));
  });

  it('refuses every tool to a session without the server right, before anything reaches the server', async () => {
    const journal = new InMemoryJournal();
    const session = createSession({ id: 'sess-none', humanId: 'bob', rights: [] });
    const model = createScriptedModel([
      toolCallsTurn([{ id: 'read', name: 'read_text_file', input: { path: join(dir, 'notes.txt') } }]),
      textTurn('ok'),
    ]);
    const result = await runLoop({
      model,
      catalogue: fs.catalogue(),
      session,
      journal,
      messages: [{ role: 'user', content: 'read' }],
    });
    expect(result.status).toBe('completed');
    expect(journal.entries.map((entry) => entry.reason)).toEqual(['missing_right']);
  });

  it('gives the server its isError as an isError result, and invalid input never reaches the server', async () => {
    const session = createSession({ id: 'sess-err', humanId: 'alice', rights: ['mcp:fs'] });
    const journal = new InMemoryJournal();
    const model = createScriptedModel([
      toolCallsTurn([
        { id: 'outside', name: 'read_text_file', input: { path: '/etc/hostname' } },
        { id: 'bad', name: 'read_text_file', input: { file: 'notes.txt' } },
      ]),
      textTurn('ok'),
    ]);
    const result = await runLoop({
      model,
      catalogue: fs.catalogue(),
      session,
      journal,
      messages: [{ role: 'user', content: 'read' }],
    });
    const reply = result.messages.find((message) => message.role === 'tool');
    if (reply?.role !== 'tool') throw new Error('expected a tool reply');
    expect(reply.content[0]?.isError).toBe(true);
    expect(toolResultText(reply.content[0]?.content ?? '')).toMatch(/outside allowed directories/i);
    expect(journal.entries.map((entry) => [entry.callId, entry.verdict, entry.reason ?? null]).sort()).toEqual([
      ['bad', 'refused', 'invalid_input'],
      ['outside', 'executed', null],
    ]);
  });

  it('keeps the MCP facts on the catalogue entry', () => {
    const entry = fs.catalogue().get('write_file');
    const definition = entry?.definition as McpToolDefinition | undefined;
    expect(definition?.mcp).toMatchObject({ server: 'fs', name: 'write_file', annotations: { destructiveHint: true } });
  });
});
