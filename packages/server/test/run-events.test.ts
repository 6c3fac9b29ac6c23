// GET /runs/:id/events over real HTTP on SQLite: the events of a run that pauses, then of its resume; a
// reader that disconnects mid-run and reconnects with Last-Event-ID gets exactly what one uninterrupted
// reader gets; another human gets 404. The tool and the model wait on gates the test opens, so "mid-run"
// is a state, not a timing. Synthetic script and tools.
import { createCatalogue } from '@toolcircuit/core';
import { createScriptedStreamingModel, textTurn } from '@toolcircuit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { gate } from './support/gate.js';
import { json, payBob, post, type Served, serve, tempStoreFile, transferTool } from './support/server-world.js';
import { openSse, readAll, type SseFrame } from './support/sse.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server whose transfer waits for `toolGate` (telling `entered`), and whose second model turn waits for `modelGate`. */
async function gatedServer(executions: unknown[]) {
  const entered = gate();
  const toolGate = gate();
  const modelGate = gate();
  const transfer = transferTool(executions, async () => {
    entered.open();
    await toolGate.opened;
  });
  const model = createScriptedStreamingModel(
    [
      payBob(),
      async () => {
        await modelGate.opened;
        return textTurn('Sent 10 to Bob.');
      },
    ],
    { fragmentLength: 4 },
  );
  const temp = tempStoreFile();
  cleanups.push(temp.remove);
  const server = await serve(temp.file, [], executions, { model, catalogue: createCatalogue([transfer]) });
  cleanups.push(() => server.close());
  return { server, entered, toolGate, modelGate };
}

async function startPaused(server: Served) {
  const { run } = await json(await post(server, '/runs', { prompt: 'Pay 10 to Bob.' }));
  expect(run.status).toBe('paused');
  return { runId: run.id as string, approval: run.pending[0] };
}

function ids(frames: readonly SseFrame[]): number[] {
  return frames.filter((frame) => frame.id !== undefined).map((frame) => Number(frame.id));
}

describe('run events (SSE)', () => {
  it('a paused run, then its resume after the approval: turns, text, the verdicts and the result; a reader that reconnects mid-run with Last-Event-ID gets exactly what an uninterrupted reader gets', async () => {
    const executions: unknown[] = [];
    const { server, entered, toolGate, modelGate } = await gatedServer(executions);
    const { runId, approval } = await startPaused(server);

    const first = await openSse(server.base, `/runs/${runId}/events`);
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const paused = await readAll(first.reader);
    // Numbered without a hole, then an `end` without an id naming the status.
    const firstId = ids(paused)[0] as number;
    expect(ids(paused)).toEqual(paused.slice(0, -1).map((_, index) => firstId + index));
    expect(paused.at(-1)).toEqual({ event: 'end', data: { runId, status: 'paused' } });
    expect(paused[0]).toMatchObject({ event: 'turn-start', data: { runId, turn: 1 } });
    expect(paused.map((frame) => frame.event)).toEqual(
      expect.arrayContaining(['tool-call-start', 'turn-end', 'call-verdict', 'loop-end']),
    );
    const held = paused.find((frame) => frame.event === 'call-verdict');
    expect(held?.data).toMatchObject({
      call: { id: 'pay', name: 'transfer', input: { amount: 10, to: 'bob' } },
      verdict: { kind: 'awaiting_confirmation' },
    });
    expect(paused.at(-2)).toMatchObject({ event: 'loop-end', data: { status: 'paused' } });
    const lastPaused = paused.at(-2)?.id as string;

    // The approval: the run is played while the readers connect (the transfer waits for its gate).
    const decided = post(server, `/runs/${runId}/decisions`, {
      decisions: [{ callId: 'pay', approved: true, inputDigest: approval.inputDigest }],
    });
    await entered.opened;
    const whole = await openSse(server.base, `/runs/${runId}/events`, { lastEventId: lastPaused });
    const part = await openSse(server.base, `/runs/${runId}/events`, { lastEventId: lastPaused });
    toolGate.open();
    const before: SseFrame[] = [];
    for (let frame = await part.reader.next(); frame !== undefined; frame = await part.reader.next()) {
      before.push(frame);
      // The next model turn waits for its gate: the run is in progress when the reader goes away.
      if (frame.event === 'turn-start') break;
    }
    part.reader.disconnect();
    const rest = await openSse(server.base, `/runs/${runId}/events`, { lastEventId: before.at(-1)?.id as string });
    modelGate.open();
    const after = await readAll(rest.reader);
    const uninterrupted = await readAll(whole.reader);
    expect((await json(await decided)).run.status).toBe('completed');

    expect([...before, ...after]).toEqual(uninterrupted);
    expect(ids(uninterrupted)).toEqual(ids(uninterrupted).map((_, index) => Number(lastPaused) + 1 + index));
    expect(uninterrupted[0]).toMatchObject({
      event: 'call-verdict',
      data: { turn: 1, call: { id: 'pay', name: 'transfer' }, verdict: { kind: 'executed' } },
    });
    expect(uninterrupted[1]).toMatchObject({
      event: 'tool-result',
      data: { turn: 1, result: { callId: 'pay', isError: false, content: 'sent 10 to bob' } },
    });
    expect(uninterrupted[2]).toMatchObject({ event: 'reply', data: { turn: 1 } });
    expect(uninterrupted[3]).toMatchObject({ event: 'turn-start', data: { turn: 2 } });
    const deltas = uninterrupted.filter((frame) => frame.event === 'text-delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((frame) => frame.data.text).join('')).toBe('Sent 10 to Bob.');
    expect(uninterrupted.at(-2)).toMatchObject({
      event: 'loop-end',
      data: { status: 'completed', text: 'Sent 10 to Bob.' },
    });
    expect(uninterrupted.at(-1)).toEqual({ event: 'end', data: { runId, status: 'completed' } });
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);

    // Read again from the start once the run is over: both stretches, in order, and the final status.
    const again = await readAll((await openSse(server.base, `/runs/${runId}/events?after=0`)).reader);
    expect(again).toEqual([...paused.slice(0, -1), ...uninterrupted]);
  });

  it('a run the model fails streams the error and ends interrupted', async () => {
    const temp = tempStoreFile();
    cleanups.push(temp.remove);
    const failing = () => {
      throw new Error('the provider is down');
    };
    const server = await serve(temp.file, [failing], []);
    cleanups.push(() => server.close());
    const { run } = await json(await post(server, '/runs', { prompt: 'Pay 10 to Bob.' }));
    expect(run.status).toBe('interrupted');
    const frames = await readAll((await openSse(server.base, `/runs/${run.id}/events`)).reader);
    expect(frames.map((frame) => frame.event)).toEqual(['turn-start', 'error', 'end']);
    expect(frames[1]?.data).toMatchObject({
      turn: 1,
      error: { message: expect.stringMatching(/the provider is down/) },
    });
    expect(frames[2]?.data).toEqual({ runId: run.id, status: 'interrupted' });
  });

  it('only the run’s human streams it: another human gets 404 as for an unknown run, no session gets 401; a bad last event id is refused', async () => {
    const executions: unknown[] = [];
    const { server } = await gatedServer(executions);
    const { runId } = await startPaused(server);

    const omar = await server.call(`/runs/${runId}/events`, { token: 'omar' });
    expect(omar.status).toBe(404);
    expect((await json(omar)).error.code).toBe('run_not_found');
    const unknown = await server.call('/runs/no-such-run/events');
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.code).toBe('run_not_found');
    const anonymous = await server.call(`/runs/${runId}/events`, { token: null });
    expect(anonymous.status).toBe(401);
    expect((await json(anonymous)).error.code).toBe('unauthenticated');
    const bad = await server.call(`/runs/${runId}/events`, { headers: { 'last-event-id': 'seven' } });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.code).toBe('invalid_event_id');
    const posted = await post(server, `/runs/${runId}/events`, {});
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET');

    // Marie's other login streams it.
    const phone = await readAll((await openSse(server.base, `/runs/${runId}/events`, { token: 'marie-phone' })).reader);
    expect(phone.at(-1)).toEqual({ event: 'end', data: { runId, status: 'paused' } });
  });
});
