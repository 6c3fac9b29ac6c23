// Run events kept in the store (schema 5), over real HTTP on one SQLite file: a server started again
// streams the events an earlier server logged, with the same ids, so a reader reconnecting with
// Last-Event-ID across the restart misses none and gets none twice; and a server streams a run that
// another server of the same store plays (by reading the store), the same events with the same ids as
// that server's own readers get. Synthetic script and tools.
import { createCatalogue } from '@toolcircuit/core';
import { createScriptedStreamingModel, textTurn } from '@toolcircuit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { gate } from './support/gate.js';
import { json, payBob, post, serve, tempStoreFile, transferTool } from './support/server-world.js';
import { openSse, readAll, type SseFrame } from './support/sse.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A server over `file` whose transfer waits for `toolGate` (telling `entered`); its model asks for the
 * transfer, then answers (`resuming`: it only answers, as for a run paused by another server).
 */
async function gatedServer(file: string, executions: unknown[], resuming = false) {
  const entered = gate();
  const toolGate = gate();
  const transfer = transferTool(executions, async () => {
    entered.open();
    await toolGate.opened;
  });
  const steps = [...(resuming ? [] : [payBob()]), textTurn('Sent 10 to Bob.')];
  const model = createScriptedStreamingModel(steps, { fragmentLength: 4 });
  const server = await serve(file, [], executions, { model, catalogue: createCatalogue([transfer]) });
  return { server, entered, toolGate };
}

const withIds = (frames: readonly SseFrame[]) => frames.filter((frame) => frame.id !== undefined);

describe('run events kept in the store', () => {
  it('a server started again streams what the earlier one logged, with the same ids; Last-Event-ID resumes across the restart', async () => {
    const temp = tempStoreFile();
    cleanups.push(temp.remove);
    const executions: unknown[] = [];
    const first = await gatedServer(temp.file, executions);
    const { run } = await json(await post(first.server, '/runs', { prompt: 'Pay 10 to Bob.' }));
    expect(run.status).toBe('paused');
    const before = await readAll((await openSse(first.server.base, `/runs/${run.id}/events`)).reader);
    expect(before.at(-1)).toEqual({ event: 'end', data: { runId: run.id, status: 'paused' } });
    await first.server.close();

    const second = await gatedServer(temp.file, executions, true);
    cleanups.push(() => second.server.close());
    const again = await readAll((await openSse(second.server.base, `/runs/${run.id}/events`)).reader);
    expect(again).toEqual(before);
    // A reader that had seen the first three events gets exactly the rest.
    const third = withIds(before)[2]?.id as string;
    const rest = await readAll(
      (await openSse(second.server.base, `/runs/${run.id}/events`, { lastEventId: third })).reader,
    );
    expect(rest).toEqual(before.slice(3));

    // The resume, played by the second server: numbered above everything before, and read whole after it.
    second.toolGate.open();
    const approval = run.pending[0];
    const decided = await post(second.server, `/runs/${run.id}/decisions`, {
      decisions: [{ callId: 'pay', approved: true, inputDigest: approval.inputDigest }],
    });
    expect((await json(decided)).run.status).toBe('completed');
    const lastBefore = withIds(before).at(-1)?.id as string;
    const resumed = await readAll(
      (await openSse(second.server.base, `/runs/${run.id}/events`, { lastEventId: lastBefore })).reader,
    );
    expect(resumed[0]).toMatchObject({ event: 'call-verdict', data: { verdict: { kind: 'executed' } } });
    expect(resumed.at(-1)).toEqual({ event: 'end', data: { runId: run.id, status: 'completed' } });
    const whole = await readAll((await openSse(second.server.base, `/runs/${run.id}/events?after=0`)).reader);
    expect(whole).toEqual([...before.slice(0, -1), ...resumed]);
    const ids = withIds(whole).map((frame) => Number(frame.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);
  });

  it('a server streams a run another server of the store plays, as that server streams it', async () => {
    const temp = tempStoreFile();
    cleanups.push(temp.remove);
    const executions: unknown[] = [];
    const playing = await gatedServer(temp.file, executions);
    cleanups.push(() => playing.server.close());
    const other = await gatedServer(temp.file, executions);
    cleanups.push(() => other.server.close());
    const { run } = await json(await post(playing.server, '/runs', { prompt: 'Pay 10 to Bob.' }));
    const decided = post(playing.server, `/runs/${run.id}/decisions`, {
      decisions: [{ callId: 'pay', approved: true, inputDigest: run.pending[0].inputDigest }],
    });
    // The transfer runs on the first server; the second one is asked for the run's events meanwhile.
    await playing.entered.opened;
    const there = await openSse(other.server.base, `/runs/${run.id}/events`);
    const here = await openSse(playing.server.base, `/runs/${run.id}/events`);
    playing.toolGate.open();
    expect((await json(await decided)).run.status).toBe('completed');
    const streamedThere = await readAll(there.reader);
    const streamedHere = await readAll(here.reader);
    expect(streamedThere).toEqual(streamedHere);
    expect(streamedThere.at(-1)).toEqual({ event: 'end', data: { runId: run.id, status: 'completed' } });
    expect(streamedThere.map((frame) => frame.event)).toEqual(
      expect.arrayContaining(['call-verdict', 'tool-result', 'turn-start', 'text-delta', 'loop-end']),
    );
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);
  });
});
