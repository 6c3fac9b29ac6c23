// The three additive hooks a durable store builds on: `beforeToolRun` (awaited just before a tool runs),
// the result handed to `Journal.append`, and `checkResume` (every resume check, nothing run).
import { describe, expect, it } from 'vitest';
import {
  argumentDigest,
  checkResume,
  createSession,
  InvalidResumeError,
  type Journal,
  type JournalAppendDetail,
  type JournalEntry,
  type Message,
  resumeLoop,
  runLoop,
  type ToolStartEvent,
} from '../../src/index.js';
import { paymentWorld } from '../fixtures.js';
import { call, callsTurn, deferred, scripted, settle, textTurn } from '../support.js';

const user: Message[] = [{ role: 'user', content: 'Paie 10 à Bob et trouve A-1234.' }];

function world() {
  const { runs, catalogue, session, confirmations } = paymentWorld();
  const model = scripted([
    callsTurn([
      call('lookup', 'chercher_dossier', { numero: 'A-1234' }),
      call('bad', 'chercher_dossier', { numero: 42 }),
      call('pay', 'virement', { amount: 10, to: 'bob' }),
    ]),
    textTurn('Virement effectué.'),
  ]);
  return { runs, catalogue, session, model, confirmations };
}

class RecordingJournal implements Journal {
  readonly appended: { entry: JournalEntry; detail: JournalAppendDetail | undefined }[] = [];
  append(entry: JournalEntry, detail?: JournalAppendDetail): void {
    this.appended.push({ entry, detail });
  }
}

describe('beforeToolRun', () => {
  it('fires only for calls that passed the four checks, before the tool runs, with the argument digest', async () => {
    const w = world();
    const seen: { event: ToolStartEvent; runsAtThatTime: number }[] = [];
    const result = await runLoop({
      ...w,
      messages: user,
      confirmation: 'pause',
      hooks: { beforeToolRun: (event) => void seen.push({ event, runsAtThatTime: w.runs.length }) },
    });
    expect(result.status).toBe('paused');
    // "bad" is refused (invalid input) and "pay" awaits confirmation: neither is about to run.
    expect(seen.map(({ event }) => event.call.id)).toEqual(['lookup']);
    expect(seen[0]?.event).toMatchObject({
      runId: result.runId,
      turn: 1,
      inputDigest: argumentDigest({ numero: 'A-1234' }),
    });

    const paused = result.paused;
    if (paused === undefined) throw new Error('expected a paused run');
    await resumeLoop(paused, [{ callId: 'pay', approved: true }], {
      ...w,
      hooks: { beforeToolRun: (event) => void seen.push({ event, runsAtThatTime: w.runs.length }) },
    });
    expect(seen.map(({ event }) => event.call.id)).toEqual(['lookup', 'pay']);
    expect(seen[1]?.runsAtThatTime).toBe(0);
    expect(w.runs).toHaveLength(1);
  });

  it('is awaited: the tool does not start until the hook settles', async () => {
    const w = world();
    const gate = deferred();
    const run = runLoop({ ...w, messages: user, confirmation: 'pause', hooks: { beforeToolRun: () => gate.promise } });
    await settle();
    await settle();
    expect(w.runs).toHaveLength(0);
    gate.resolve();
    expect((await run).status).toBe('paused');
  });

  it('a hook that throws stops the run and the tool never runs', async () => {
    const w = world();
    const paused = (await runLoop({ ...w, messages: user, confirmation: 'pause' })).paused;
    if (paused === undefined) throw new Error('expected a paused run');
    const failure = new Error('store unavailable');
    await expect(
      resumeLoop(paused, [{ callId: 'pay', approved: true }], {
        ...w,
        hooks: {
          beforeToolRun: () => {
            throw failure;
          },
        },
      }),
    ).rejects.toBe(failure);
    expect(w.runs).toEqual([]);
  });
});

describe('Journal.append detail', () => {
  it('receives the exact result that goes back to the model, for every attempt', async () => {
    const w = world();
    const journal = new RecordingJournal();
    const result = await runLoop({ ...w, messages: user, journal, confirmation: 'refuse' });
    const reply = result.messages.find((message) => message.role === 'tool');
    if (reply?.role !== 'tool') throw new Error('expected a tool reply');
    const byId = new Map(journal.appended.map(({ entry, detail }) => [entry.callId, detail?.result]));
    expect(byId.size).toBe(3);
    for (const part of reply.content) expect(byId.get(part.callId)).toEqual(part);
  });
});

describe('checkResume', () => {
  it('throws what resumeLoop would throw, and runs nothing', async () => {
    const w = world();
    const paused = (await runLoop({ ...w, messages: user, confirmation: 'pause' })).paused;
    if (paused === undefined) throw new Error('expected a paused run');
    const digest = paused.pending[0]?.inputDigest ?? '';
    expect(() =>
      checkResume(paused, [{ callId: 'pay', approved: true, inputDigest: digest }], w.session),
    ).not.toThrow();
    expect(() => checkResume(paused, [], w.session)).toThrow(InvalidResumeError);
    expect(() =>
      checkResume(
        paused,
        [{ callId: 'pay', approved: true, inputDigest: argumentDigest({ amount: 1000, to: 'bob' }) }],
        w.session,
      ),
    ).toThrow(/other arguments/);
    const stranger = createSession({ id: 'session-8', humanId: 'eve', rights: ['payments:write'] });
    expect(() => checkResume(paused, [{ callId: 'pay', approved: true }], stranger)).toThrow(/another session/);
    expect(w.runs).toEqual([]);
    expect(w.confirmations.outstanding()).toEqual([]);
  });
});
