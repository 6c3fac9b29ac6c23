import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSession, executeCall, toolResultText } from '@toolcircuit/core';
import { afterAll, describe, expect, it } from 'vitest';
import { connectMcpServer, type McpEvent, type McpTaskStore } from '../src/index.js';
import { everythingServer } from './reference-servers.js';

// Tasks (the 2025-11-25 extension): a task-augmented call's id is kept in the application's store, so a
// restarted worker collects the result instead of running the tool again; the call's abort cancels the task.

const slowServer = fileURLToPath(new URL('./fixtures/slow-task-server.mjs', import.meta.url));
const worker = fileURLToPath(new URL('./fixtures/task-worker.mjs', import.meta.url));
const children: ChildProcess[] = [];
const directory = mkdtempSync(join(tmpdir(), 'toolcircuit-tasks-'));

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(directory, { recursive: true, force: true });
});

/** Starts a child and resolves with the first line it prints. */
function startChild(args: string[]): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const newline = text.indexOf('\n');
      if (newline !== -1) resolve({ child, line: text.slice(0, newline) });
    });
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before printing a line`)));
  });
}

/** A JSON file standing in for the application's database (the worker fixture keeps the same file). */
function fileTaskStore(file: string): McpTaskStore {
  const read = (): Record<string, string> => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    } catch {
      return {};
    }
  };
  return {
    get: (key) => read()[key],
    set: (key, taskId) => writeFileSync(file, JSON.stringify({ ...read(), [key]: taskId })),
    delete: (key) => {
      const { [key]: _, ...rest } = read();
      writeFileSync(file, JSON.stringify(rest));
    },
  };
}

async function runCount(url: string): Promise<{ started: number; completed: number }> {
  const connection = await connectMcpServer({ name: 'count', server: { url } });
  try {
    const result = await connection.client.callTool({ name: 'run_count', arguments: {} });
    return JSON.parse((result.content as { text: string }[])[0]?.text ?? '{}');
  } finally {
    await connection.close();
  }
}

describe('tasks (2025-11-25)', () => {
  it("server-everything's simulate-research-query runs as a task through the catalogue", async () => {
    const events: McpEvent[] = [];
    const connection = await connectMcpServer({
      name: 'everything',
      server: everythingServer(),
      onEvent: (event) => events.push(event),
    });
    try {
      const session = createSession({ id: 's', humanId: 'ana', rights: ['mcp:everything'] });
      const outcome = await executeCall(
        { type: 'tool_call', id: 'research', name: 'simulate-research-query', input: { topic: 'tides' } },
        { catalogue: connection.catalogue(), session, runId: 'r', confirmation: 'refuse' },
      );
      expect(outcome.verdict.kind).toBe('executed');
      expect(toolResultText(outcome.result.content)).toContain('Research Report: tides');
      expect(events.find((event) => event.type === 'task')).toMatchObject({
        toolName: 'simulate-research-query',
        callId: 'research',
        resumed: false,
      });
    } finally {
      await connection.close();
    }
  }, 20_000);

  it('a worker killed mid-task is restarted and collects the result; the tool ran once', async () => {
    const { line: url } = await startChild([slowServer]);
    const file = join(directory, 'tasks.json');
    const store = fileTaskStore(file);
    const child = spawn(process.execPath, [worker, url, file], { stdio: 'ignore' });
    children.push(child);
    // Wait until the worker has stored its task's id, then kill it: no cancel, no goodbye.
    await expect.poll(() => Object.keys(JSON.parse(readFileSyncOr(file, '{}'))).length, { timeout: 10_000 }).toBe(1);
    child.kill('SIGKILL');
    expect(await runCount(url)).toEqual({ started: 1, completed: 0 });

    const events: McpEvent[] = [];
    const restarted = await connectMcpServer({
      name: 'slow',
      server: { url },
      tasks: store,
      onEvent: (event) => events.push(event),
    });
    try {
      const session = createSession({ id: 'w', humanId: 'ops', rights: ['mcp:slow'] });
      const outcome = await executeCall(
        { type: 'tool_call', id: 'call-1', name: 'slow_report', input: { week: 48 } },
        { catalogue: restarted.catalogue(), session, runId: 'run-1', confirmation: 'refuse' },
      );
      expect(outcome.verdict.kind).toBe('executed');
      expect(toolResultText(outcome.result.content)).toBe('Report for week 48 compiled.');
      expect(events.find((event) => event.type === 'task')).toMatchObject({ callId: 'call-1', resumed: true });
      expect(await runCount(url)).toEqual({ started: 1, completed: 1 });
      // Collected: the id is gone from the store.
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({});
    } finally {
      await restarted.close();
    }
  }, 30_000);

  it("the call's abort cancels the task on the server", async () => {
    const { line: url } = await startChild([slowServer]);
    const connection = await connectMcpServer({ name: 'slow', server: { url } });
    try {
      const session = createSession({ id: 'w', humanId: 'ops', rights: ['mcp:slow'] });
      const abort = new AbortController();
      const outcome = executeCall(
        { type: 'tool_call', id: 'call-2', name: 'slow_report', input: { week: 49 } },
        {
          catalogue: connection.catalogue(),
          session,
          runId: 'run-2',
          confirmation: 'refuse',
          signal: abort.signal,
        },
      );
      await expect.poll(async () => (await runCount(url)).started).toBe(1);
      abort.abort();
      expect((await outcome).verdict.kind).toBe('aborted');
      // The server was told: its task is cancelled (and so never completes).
      await expect.poll(async () => (await taskStatuses(url)).join()).toBe('cancelled');
      expect(await runCount(url)).toEqual({ started: 1, completed: 0 });
    } finally {
      await connection.close();
    }
  }, 20_000);
});

/** The statuses of the server's tasks, as `tasks/list` gives them to any client (its tasks have no session). */
async function taskStatuses(url: string): Promise<string[]> {
  const connection = await connectMcpServer({ name: 'list', server: { url } });
  try {
    const passThrough = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };
    const listed = (await connection.client.request(
      { method: 'tasks/list', params: {} } as never,
      passThrough as never,
    )) as {
      tasks: { status: string }[];
    };
    return listed.tasks.map((task) => task.status);
  } finally {
    await connection.close();
  }
}

function readFileSyncOr(file: string, fallback: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}
