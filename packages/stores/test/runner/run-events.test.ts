// The durable runner tells a listener the same events as `streamLoop`, for start, resume and recover,
// without changing what runs or what is stored. Memory store; synthetic scripts.
import { type LoopStreamEvent, ProviderError } from '@toolcircuit/core';
import { createScriptedStreamingModel, textTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createDurableRunner, createMemoryStore, type DurableStore } from '../../src/index.js';
import { approveAll, done, marie, pausingTurn, user, worldCatalogue } from '../support/world.js';

/** What differs between two identical runs: claim tokens, and the times the loop takes itself. */
const VARYING = new Set(['token', 'at', 'durationMs']);

const clock = () => new Date('2026-12-03T10:00:00.000Z');

function runnerOf(
  store: DurableStore,
  executions: unknown[],
  steps: Parameters<typeof createScriptedStreamingModel>[0],
) {
  return createDurableRunner({
    store,
    catalogue: worldCatalogue(executions),
    model: createScriptedStreamingModel(steps, { fragmentLength: 4 }),
    workerId: 'worker-1',
    clock,
  });
}

/** A run paused on the transfer, then approved, with or without listeners; what it stored and ran. */
async function pauseAndApprove(listen?: (event: LoopStreamEvent) => void) {
  const store = createMemoryStore();
  const executions: unknown[] = [];
  const started = await runnerOf(store, executions, [pausingTurn()]).start({
    session: marie(),
    messages: user,
    runId: 'run-1',
    ...(listen === undefined ? {} : { onEvent: listen }),
  });
  const paused = started.paused;
  if (paused === undefined) throw new Error(`expected a paused run, got ${started.status}`);
  const resumed = await runnerOf(store, executions, [done]).resume('run-1', approveAll(paused), {
    session: marie(),
    ...(listen === undefined ? {} : { onEvent: listen }),
  });
  const record = await store.getRun('run-1');
  // What each record says, without what differs between any two runs (claim tokens, times).
  const journal = (await store.readJournal({ runId: 'run-1' })).map(({ record }) =>
    JSON.stringify(record, (key, value) => (VARYING.has(key) ? undefined : value)),
  );
  return { started, resumed, executions, journal, messages: record?.result?.messages, status: record?.status };
}

describe('durable runner events', () => {
  it('start tells the turn, the text and each verdict, and ends with loop-end paused; resume tells the approved call, its result, the reply and the next turn', async () => {
    const events: LoopStreamEvent[] = [];
    await pauseAndApprove((event) => events.push(event));
    const types = events.map((event) => event.type);
    const pausedAt = types.indexOf('loop-end');
    const start = events.slice(0, pausedAt + 1);
    const resume = events.slice(pausedAt + 1);

    expect(start[0]).toMatchObject({ type: 'turn-start', runId: 'run-1', turn: 1 });
    expect(start.at(-1)).toMatchObject({ type: 'loop-end', result: { status: 'paused' } });
    const startVerdicts = start.filter((event) => event.type === 'call-verdict');
    expect(startVerdicts.map((event) => [event.call.id, event.verdict.kind])).toEqual(
      expect.arrayContaining([
        ['lookup', 'executed'],
        ['pay', 'awaiting_confirmation'],
      ]),
    );
    // The held call has no result yet; the lookup's result is told.
    expect(start.filter((event) => event.type === 'tool-result').map((event) => event.result.callId)).toEqual([
      'lookup',
    ]);
    expect(types.filter((type) => type === 'tool-call-start').length).toBeGreaterThanOrEqual(2);

    expect(resume[0]).toMatchObject({
      type: 'call-verdict',
      turn: 1,
      call: { id: 'pay' },
      verdict: { kind: 'executed' },
    });
    expect(resume[1]).toMatchObject({ type: 'tool-result', turn: 1, result: { callId: 'pay', isError: false } });
    expect(resume[2]).toMatchObject({ type: 'reply', turn: 1 });
    expect(resume[3]).toMatchObject({ type: 'turn-start', turn: 2 });
    // The model streams: its answer arrives as deltas that add up to the text.
    const deltas = resume.filter((event) => event.type === 'text-delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((event) => event.text).join('')).toBe('Done: 10 sent to Bob, case A-1234 is open.');
    expect(resume.at(-1)).toMatchObject({ type: 'loop-end', result: { status: 'completed' } });
  });

  it('a listener, even one that throws, changes nothing that runs or is stored', async () => {
    const quiet = await pauseAndApprove();
    const throwing = await pauseAndApprove(() => {
      throw new Error('the listener failed');
    });
    for (const run of [quiet, throwing]) {
      expect(run.status).toBe('completed');
      expect(run.executions).toEqual([{ amount: 10, to: 'bob' }]);
    }
    expect(quiet.journal.length).toBeGreaterThan(3);
    expect(throwing.journal).toEqual(quiet.journal);
    expect(throwing.messages).toEqual(quiet.messages);
    expect(throwing.resumed.messages).toEqual(quiet.resumed.messages);
  });

  it('recover tells the events of the turn the model is asked again for', async () => {
    const store = createMemoryStore();
    const executions: unknown[] = [];
    const overloaded = () => {
      throw new ProviderError({
        provider: 'scripted',
        code: 'overloaded',
        message: 'overloaded (529)',
        retryable: true,
      });
    };
    await expect(
      runnerOf(store, executions, [overloaded]).start({ session: marie(), messages: user, runId: 'run-1' }),
    ).rejects.toBeInstanceOf(ProviderError);
    expect((await store.getRun('run-1'))?.status).toBe('interrupted');

    const events: LoopStreamEvent[] = [];
    const result = await runnerOf(store, executions, [textTurn('Nothing to do.')]).recover('run-1', {
      session: marie(),
      onEvent: (event) => events.push(event),
    });
    expect(result.status).toBe('completed');
    expect(events[0]).toMatchObject({ type: 'turn-start', turn: 1 });
    expect(
      events
        .filter((event) => event.type === 'text-delta')
        .map((event) => event.text)
        .join(''),
    ).toBe('Nothing to do.');
    expect(events.at(-1)).toMatchObject({ type: 'loop-end', result: { status: 'completed' } });
  });
});
