// The `recovery` option in one process, over real HTTP, on the memory store (the SIGKILL test covers SQLite
// across processes; here the store must be the same module as the runner's sources): a run left mid-turn by
// another worker of the store (a runner whose clock lags ten minutes, so its lease has ended for everyone else while it still
// waits on its model) is taken over by the server, streamed on GET /runs/:id/events and cancellable like any
// run played here; a run whose human `sessionFor` does not vouch for is left alone. Synthetic script and tools.
import { createCatalogue, defineTool, everySession } from '@toolcircuit/core';
import { createDurableRunner, createMemoryStore, type DurableStore, type RecoveredRun } from '@toolcircuit/stores';
import { textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidServerOptionError } from '../src/index.js';
import { json, post, serve, sessions, tempStoreFile } from './support/server-world.js';
import { openSse, readAll } from './support/sse.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A step that waits until the run is aborted: a tool still running when its worker is gone. */
function slowCatalogue(entered: string[]) {
  return createCatalogue([
    defineTool({
      name: 'slow_step',
      description: 'A long step of a batch job.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      right: everySession,
      run: async (_input, context) => {
        entered.push(context.runId);
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
        return 'stopped';
      },
    }),
  ]);
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 1500; attempt += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${what}: not within 30 s`);
}

/**
 * Starts a run of Marie's on a worker that is as good as gone: its clock lags ten minutes, so the lease it
 * holds (and renews) ended long ago for everyone else; its model never answers until the test ends.
 */
function leaveMidTurn(store: DurableStore, catalogue: ReturnType<typeof slowCatalogue>): string {
  const runId = `left-${Math.random().toString(36).slice(2)}`;
  let release = (): void => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const gone = createDurableRunner({
    store,
    catalogue,
    leaseMs: 1000,
    clock: () => new Date(Date.now() - 10 * 60_000),
    model: {
      provider: 'gone',
      modelId: 'gone',
      generate: async () => {
        await released;
        return textTurn('too late');
      },
    },
  });
  const marie = sessions().get('marie-laptop');
  if (marie === undefined) throw new Error('no session');
  // Its claim was taken over meanwhile: it fails when it wakes up, and writes nothing.
  const done = gone.start({ session: marie, messages: [{ role: 'user', content: 'Run the batch.' }], runId });
  cleanups.push(async () => {
    release();
    await done.catch(() => undefined);
  });
  return runId;
}

async function recoveringServer(
  steps: Parameters<typeof serve>[1],
  sessionFor: (humanId: string) => boolean,
  entered: string[],
) {
  const temp = tempStoreFile();
  cleanups.push(temp.remove);
  const recovered: RecoveredRun[] = [];
  const catalogue = slowCatalogue(entered);
  const marie = sessions().get('marie-phone');
  const store = createMemoryStore();
  const server = await serve(temp.file, steps, [], {
    store,
    catalogue,
    recovery: {
      sessionFor: (run) => (sessionFor(run.humanId) ? marie : undefined),
      intervalMs: 50,
      onRecovered: (run) => recovered.push(run),
    },
  });
  cleanups.push(async () => {
    await server.close();
  });
  return { server, store, recovered, catalogue };
}

describe('recovery: runs a dead worker left mid-turn', () => {
  it('are taken over through the durable runner, streamed on GET /runs/:id/events, and completed', async () => {
    const entered: string[] = [];
    const { server, store, recovered, catalogue } = await recoveringServer(
      [textTurn('Batch done.')],
      () => true,
      entered,
    );
    const runId = leaveMidTurn(store, catalogue);
    await until(() => recovered.length > 0, 'the run to be recovered');
    expect(recovered).toEqual([expect.objectContaining({ runId, outcome: 'recovered' })]);

    const { run } = await json(await server.call(`/runs/${runId}`));
    expect(run.status).toBe('completed');
    expect(run.text).toBe('Batch done.');
    const { reader } = await openSse(server.base, `/runs/${runId}/events`);
    const frames = await readAll(reader);
    expect(frames.map((frame) => frame.event)).toEqual(expect.arrayContaining(['turn-start', 'loop-end', 'end']));
    expect(frames.at(-1)?.data).toEqual({ runId, status: 'completed' });
  });

  it('can be cancelled while the server plays them (the tool is aborted, the run ends aborted)', async () => {
    const entered: string[] = [];
    const { server, store, catalogue } = await recoveringServer(
      [toolCallsTurn([{ id: 'step', name: 'slow_step', input: {} }]), textTurn('never asked')],
      () => true,
      entered,
    );
    const runId = leaveMidTurn(store, catalogue);
    await until(() => entered.includes(runId), 'the recovered run to reach its tool');
    const cancelled = await post(server, `/runs/${runId}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect((await json(cancelled)).run.status).toBe('aborted');
  });

  it('leaves alone a run whose human sessionFor gives no session for', async () => {
    const entered: string[] = [];
    const { store, recovered, catalogue } = await recoveringServer([textTurn('no')], () => false, entered);
    const runId = leaveMidTurn(store, catalogue);
    await until(() => recovered.length >= 2, 'two sweeps to pass over the run');
    expect(recovered.every((run) => run.runId === runId && run.outcome === 'skipped')).toBe(true);
    expect((await store.getRun(runId))?.status).toBe('resuming');
  });

  it('rejects a recovery option it cannot use, naming it', async () => {
    const temp = tempStoreFile();
    cleanups.push(temp.remove);
    for (const [recovery, field] of [
      [{}, 'recovery'],
      [{ sessionFor: () => undefined, intervalMs: 0 }, 'recovery.intervalMs'],
      [{ sessionFor: () => undefined, onError: 'log' }, 'recovery.onError'],
    ] as const) {
      await expect(
        // biome-ignore lint/suspicious/noExplicitAny: a misconfiguration from untyped code, on purpose.
        serve(temp.file, [], [], { recovery: recovery as any }),
      ).rejects.toSatisfy((error) => error instanceof InvalidServerOptionError && error.field === field);
    }
  });
});
