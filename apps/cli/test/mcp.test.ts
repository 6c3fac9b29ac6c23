import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSession, executeCall, InMemoryConfirmations } from '@toolcircuit/core';
import { connectMcpServer } from '@toolcircuit/mcp';
import { startRecordingServer } from '@toolcircuit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runBin } from './support/cli-process.js';

const MEMORY_SERVER = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-memory/dist/index.js', import.meta.url),
);
const CASES = fileURLToPath(new URL('./fixtures/mcp-cases-catalogue.mjs', import.meta.url));
const ENV_SERVER = fileURLToPath(new URL('./fixtures/env-needing-server.mjs', import.meta.url));
const TOKEN = 'docs-token-3f9a1c77e2b54d08';

/** A SYNTHETIC OpenAI Chat Completions answer (written for this test, not recorded). */
function chatReply(message: object, finishReason: string): { contentType: string; text: string } {
  return {
    contentType: 'application/json',
    text: JSON.stringify({
      id: 'chatcmpl-synthetic',
      object: 'chat.completion',
      created: 1,
      model: 'gpt-4.1-mini',
      choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finishReason }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    }),
  };
}

const entity = { name: 'Alice', entityType: 'person', observations: ['likes tea'] };
const toolTurn = chatReply(
  {
    tool_calls: [
      {
        id: 'call_1',
        type: 'function',
        function: { name: 'create_entities', arguments: JSON.stringify({ entities: [entity] }) },
      },
      { id: 'call_2', type: 'function', function: { name: 'delete_entities', arguments: '{"entityNames":["Alice"]}' } },
    ],
  },
  'tool_calls',
);

describe('toolcircuit mcp', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'toolcircuit-cli-mcp-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('mcp import writes the tools with pins and policy, then lints the file', async () => {
    const { code, stdout, stderr } = await runBin(
      [
        'mcp',
        'import',
        '--name',
        'memory',
        '--out',
        join(dir, 'memory.tools.json'),
        '--',
        process.execPath,
        MEMORY_SERVER,
      ],
      { env: { MEMORY_FILE_PATH: join(dir, 'unused.jsonl') } },
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('wrote 9 tool(s) of "memory"');
    expect(stdout).toContain('needs confirmation: delete_entities, delete_observations, delete_relations');
    expect(stdout).toMatch(/memory\.tools\.json: 9 tool\(s\)/);
    const file = JSON.parse(await readFile(join(dir, 'memory.tools.json'), 'utf8'));
    const create = file.tools.find((tool: { name: string }) => tool.name === 'create_entities');
    expect(create._meta).toMatchObject({
      'toolcircuit/fingerprint': expect.stringMatching(/^[0-9a-f]{64}$/),
      'toolcircuit/right': 'mcp:memory',
      'toolcircuit/irreversible': false,
    });
    // It reads back as an MCP tools/list file: lint takes it as it is.
    const lint = await runBin(['lint', join(dir, 'memory.tools.json'), '--fail-on', 'none']);
    expect(lint.code).toBe(0);
  });

  it('mcp import --pass-env hands a variable on to a stdio server by name; its value is written nowhere', async () => {
    const out = join(dir, 'docs.tools.json');
    // Without it the server does not get the variable (only PATH, HOME…), and cannot start.
    const without = await runBin(
      ['mcp', 'import', '--name', 'docs', '--out', out, '--', process.execPath, ENV_SERVER],
      {
        env: { DOCS_TOKEN: TOKEN },
      },
    );
    expect(without.code).toBe(2);
    expect(without.stderr).toMatch(/could not connect to the MCP server/);
    const passed = await runBin(
      ['mcp', 'import', '--name', 'docs', '--out', out, '--pass-env', 'DOCS_TOKEN', '--', process.execPath, ENV_SERVER],
      { env: { DOCS_TOKEN: TOKEN } },
    );
    expect(passed.stderr).toBe('');
    expect(passed.code).toBe(0);
    expect(passed.stdout).toContain('wrote 1 tool(s) of "docs"');
    const written = await readFile(out, 'utf8');
    expect(JSON.parse(written).server).toEqual({
      name: 'docs',
      command: process.execPath,
      args: [ENV_SERVER],
      passEnv: ['DOCS_TOKEN'],
    });
    expect(`${written}${passed.stdout}${passed.stderr}`).not.toContain(TOKEN);
    // A name that is not set is said, not passed on empty.
    const unset = await runBin(['mcp', 'import', '--pass-env', 'DOCS_TOKEN', '--', process.execPath, ENV_SERVER]);
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/--pass-env DOCS_TOKEN: DOCS_TOKEN is not set/);
  });

  it('mcp import --server takes the command and its passEnv from the config file', async () => {
    const project = await mkdtemp(join(dir, 'project-'));
    await writeFile(
      join(project, 'toolcircuit.config.json'),
      JSON.stringify({
        mcpServers: { docs: { command: process.execPath, args: [ENV_SERVER], passEnv: ['DOCS_TOKEN'] } },
      }),
    );
    const imported = await runBin(['mcp', 'import', '--server', 'docs'], { cwd: project, env: { DOCS_TOKEN: TOKEN } });
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    const written = await readFile(join(project, 'mcp-docs.tools.json'), 'utf8');
    expect(JSON.parse(written).tools.map((tool: { name: string }) => tool.name)).toEqual(['search_docs']);
    expect(JSON.parse(written).server.passEnv).toEqual(['DOCS_TOKEN']);
    expect(written).not.toContain(TOKEN);
    const unknown = await runBin(['mcp', 'import', '--server', 'nope'], { cwd: project });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no mcpServers\.nope[\s\S]*Known: docs/);
  });

  it('run imports the config file mcpServers: non-destructive calls run, a deletion pauses (exit 3)', async () => {
    const memoryFile = join(dir, 'memory.jsonl');
    await writeFile(
      join(dir, 'toolcircuit.config.json'),
      JSON.stringify({
        model: 'openai:gpt-4.1-mini',
        mcpServers: {
          memory: {
            command: process.execPath,
            args: [MEMORY_SERVER],
            passEnv: ['MEMORY_FILE_PATH'],
            pins: 'memory.tools.json',
          },
        },
      }),
    );
    const model = await startRecordingServer((_request, index) => [toolTurn][index]);
    try {
      const { code, stdout } = await runBin(
        ['run', 'Remember Alice, then forget her.', '--no-stream', '--right', 'mcp:memory'],
        {
          cwd: dir,
          env: {
            TOOLCIRCUIT_BASE_URL: `${model.url}/v1`,
            OPENAI_API_KEY: 'sk-test-not-a-key',
            MEMORY_FILE_PATH: memoryFile,
          },
        },
      );
      expect(stdout).toMatch(/toolcircuit run: 9 tool\(s\) on openai:gpt-4\.1-mini/);
      expect(stdout).toMatch(/create_entities .*right ✓ · executed/);
      expect(stdout).toMatch(/delete_entities .*paused|delete_entities .*awaiting/);
      expect(code).toBe(3);
      expect(await readFile(memoryFile, 'utf8')).toContain('"Alice"');
      // The model was offered the server's tools by their MCP names.
      expect(model.requests[0]?.text).toContain('"name":"delete_entities"');
    } finally {
      await model.close();
    }
  });

  it('run refuses a tool whose definition no longer matches its pin, and says so', async () => {
    const pins = JSON.parse(await readFile(join(dir, 'memory.tools.json'), 'utf8'));
    for (const tool of pins.tools)
      if (tool.name === 'create_entities') tool._meta['toolcircuit/fingerprint'] = '0'.repeat(64);
    await writeFile(join(dir, 'memory.tools.json'), JSON.stringify(pins));
    const memoryFile = join(dir, 'memory-2.jsonl');
    const createOnly = chatReply(
      {
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'create_entities', arguments: JSON.stringify({ entities: [entity] }) },
          },
        ],
      },
      'tool_calls',
    );
    const done = chatReply({ content: 'I could not.' }, 'stop');
    const model = await startRecordingServer((_request, index) => [createOnly, done][index]);
    try {
      const { stdout, stderr } = await runBin(['run', 'Remember Alice.', '--no-stream', '--right', 'mcp:memory'], {
        cwd: dir,
        env: {
          TOOLCIRCUIT_BASE_URL: `${model.url}/v1`,
          OPENAI_API_KEY: 'sk-test-not-a-key',
          MEMORY_FILE_PATH: memoryFile,
        },
      });
      expect(stderr).toContain(
        'mcp memory: the definition of "create_entities" changed since it was pinned; it will not run.',
      );
      expect(stdout).toMatch(/create_entities /);
      // What the model was told for that call, in the next request.
      expect(model.requests[1]?.text).toContain('changed after it was approved');
      await expect(readFile(memoryFile, 'utf8')).rejects.toThrow(/ENOENT/);
    } finally {
      await model.close();
    }
  });

  it('mcp serve: a catalogue module served over stdio, imported back, every call through the checks', async () => {
    const closedLog = join(dir, 'closed.log');
    const served = await connectMcpServer({
      name: 'cases',
      server: {
        command: process.execPath,
        args: [BIN, 'mcp', 'serve', CASES, '--right', 'cases:read', '--human', 'operator'],
        env: { CLOSED_LOG: closedLog },
        stderr: 'ignore',
      },
    });
    try {
      const catalogue = served.catalogue();
      // Annotations came from the definitions: close_case is destructive, hence irreversible here too.
      expect(served.tools().map((tool) => [tool.name, tool.irreversible])).toEqual([
        ['lookup_case', false],
        ['close_case', true],
      ]);
      // This side's session may use the server; the server's own session (--right cases:read) decides the rest.
      const session = createSession({
        id: 'client',
        humanId: 'alice',
        rights: ['mcp:cases'],
        confirmations: new InMemoryConfirmations(),
      });
      const lookup = await executeCall(
        { type: 'tool_call', id: '1', name: 'lookup_case', input: { number: 'A-1234' } },
        { catalogue, session },
      );
      // The served tool declares no outputSchema, so its result comes back as the JSON text it sent.
      expect(lookup.result).toMatchObject({ isError: false, content: '{"number":"A-1234","status":"open"}' });
      (session.confirmations as InMemoryConfirmations).confirm(
        'close_case',
        { number: 'A-1234' },
        { humanId: 'alice', anyRun: true },
      );
      const close = await executeCall(
        { type: 'tool_call', id: '2', name: 'close_case', input: { number: 'A-1234' } },
        { catalogue, session },
      );
      // Confirmed on this side, but the serving session lacks cases:close: refused there, never run.
      expect(close.result.isError).toBe(true);
      expect(JSON.stringify(close.result.content)).toMatch(/cases:close/);
      await expect(readFile(closedLog, 'utf8')).rejects.toThrow(/ENOENT/);
    } finally {
      await served.close();
    }
  });
});
