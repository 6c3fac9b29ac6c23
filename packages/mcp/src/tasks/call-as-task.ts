import type { Client } from '@modelcontextprotocol/client';
import { argumentDigest } from '@toolcircuit/core';
import type { McpCallResult } from '../map-mcp-result.js';
import type { McpTaskStore } from './mcp-task-store.js';

/** What a task-augmented call needs besides the client. */
export interface TaskCall {
  readonly server: string;
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  readonly runId: string;
  readonly callId: string;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** How long the server should keep the task and its result, in ms. */
  readonly ttlMs: number;
  readonly store: McpTaskStore;
  readonly onTask: (event: { readonly taskId: string; readonly resumed: boolean }) => void;
}

/** The v2 SDK keeps tasks as wire vocabulary only: its requests take a schema, and these results are checked here. */
const passThrough = { '~standard': { version: 1, vendor: 'toolcircuit', validate: (value: unknown) => ({ value }) } };

/**
 * Calls a tool as a task (the 2025-11-25 tasks extension): `tools/call` with `task` answers at once with the
 * task's id, which is stored before anything else happens; `tasks/result` then waits for the tool's result.
 * A call whose id is already stored (the same run's same call, started by a worker that stopped) collects
 * that task's result and never calls the tool again. The call's abort cancels the task on the server.
 */
export async function callAsTask(client: Client, call: TaskCall): Promise<McpCallResult> {
  const key = JSON.stringify([call.server, call.toolName, call.runId, call.callId, argumentDigest(call.input)]);
  let taskId = await call.store.get(key);
  const resumed = taskId !== undefined;
  if (taskId === undefined) {
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: call.toolName, arguments: call.input, task: { ttl: call.ttlMs } },
      } as never,
      passThrough as never,
      { signal: call.signal, timeout: call.timeoutMs },
    );
    taskId = taskIdOf(created);
    if (taskId === undefined) {
      // A server may answer a task-augmented call directly; that is the result.
      return created as McpCallResult;
    }
    await call.store.set(key, taskId);
  }
  call.onTask({ taskId, resumed });
  const id = taskId;
  const cancel = () => {
    // Best effort: the call is over for this side whatever the server says.
    client.request({ method: 'tasks/cancel', params: { taskId: id } } as never, passThrough as never).catch(() => {});
  };
  call.signal.addEventListener('abort', cancel, { once: true });
  try {
    // Poll the status (each request bounded by the request timeout, however long the task runs), then fetch
    // the result; `input_required` is fetched at once, since the server delivers its question that way.
    for (;;) {
      const task = (await client.request(
        { method: 'tasks/get', params: { taskId: id } } as never,
        passThrough as never,
        {
          signal: call.signal,
          timeout: call.timeoutMs,
        },
      )) as { status?: unknown; pollInterval?: unknown };
      if (typeof task.status === 'string' && !WAITING.has(task.status)) break;
      await sleep(pollDelay(task.pollInterval), call.signal);
    }
    const result = (await client.request(
      { method: 'tasks/result', params: { taskId: id } } as never,
      passThrough as never,
      {
        signal: call.signal,
        timeout: call.timeoutMs,
        resetTimeoutOnProgress: true,
      },
    )) as McpCallResult;
    await call.store.delete(key);
    return result;
  } finally {
    call.signal.removeEventListener('abort', cancel);
  }
}

/** Task statuses that mean "not yet". */
const WAITING = new Set(['working']);

/** The server's suggested interval, kept between 50 ms and 5 s. */
function pollDelay(suggested: unknown): number {
  return typeof suggested === 'number' && Number.isFinite(suggested) ? Math.min(5000, Math.max(50, suggested)) : 500;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

function taskIdOf(result: unknown): string | undefined {
  const task = (result as { task?: { taskId?: unknown } } | undefined)?.task;
  return typeof task?.taskId === 'string' ? task.taskId : undefined;
}
