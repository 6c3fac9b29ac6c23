// A paused run is resumed once: resumeLoop spends its resume token (in the session's confirmation store,
// or an engine's own run store) before anything runs, so the same stored state given twice (a retried
// request, a copy kept elsewhere, two racing workers) never runs an approved call twice.
import { describe, expect, it } from 'vitest';
import {
  type ConfirmationStore,
  canonicalJson,
  createSession,
  InMemoryConfirmations,
  InMemoryJournal,
  InvalidLoopOptionsError,
  type Message,
  type PausedRun,
  PausedRunResumedError,
  resumeLoop,
  runLoop,
} from '../../src/index.js';
import { paymentWorld } from '../fixtures.js';
import { call, callsTurn, scripted, textTurn } from '../support.js';

const user: Message[] = [{ role: 'user', content: 'Paie 10 à Bob.' }];

async function paused() {
  const world = paymentWorld();
  const journal = new InMemoryJournal();
  const model = scripted([callsTurn([call('pay', 'virement', { amount: 10, to: 'bob' })])]);
  const result = await runLoop({ ...world, journal, model, messages: user, confirmation: 'pause' });
  if (result.paused === undefined) throw new Error('expected a pause');
  const stored = canonicalJson(result.paused);
  return { ...world, journal, stored, paused: JSON.parse(stored) as PausedRun };
}

const approve = (state: PausedRun) =>
  state.pending.map((pending) => ({ callId: pending.callId, approved: true, inputDigest: pending.inputDigest }));

describe('a paused run is resumed once', () => {
  it('a second resume of the same stored state runs nothing and says it was resumed already', async () => {
    const { stored, runs, catalogue, session, journal } = await paused();
    const options = { catalogue, session, journal };
    const first = JSON.parse(stored) as PausedRun;
    expect(first.resumeToken).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const result = await resumeLoop(first, approve(first), { ...options, model: scripted([textTurn('ok')]) });
    expect(result.status).toBe('completed');

    const again = JSON.parse(stored) as PausedRun; // another copy of the very same stored state
    const second = resumeLoop(again, approve(again), { ...options, model: scripted([textTurn('ok')]) });
    await expect(second).rejects.toBeInstanceOf(PausedRunResumedError);
    await expect(second).rejects.toMatchObject({ runId: first.runId, turn: 1, message: /resumed already/ });
    expect(runs).toEqual([{ amount: 10, to: 'bob' }]);
    // The refused resume journaled nothing: one entry for the pause, one for the run.
    expect(journal.entries.map((entry) => entry.verdict)).toEqual(['awaiting_confirmation', 'executed']);
  });

  it('two resumes racing: one runs the payment, the other is refused', async () => {
    const { stored, runs, catalogue, session, journal } = await paused();
    const options = { catalogue, session, journal };
    const copies = [JSON.parse(stored) as PausedRun, JSON.parse(stored) as PausedRun];
    const settled = await Promise.allSettled(
      copies.map((copy) => resumeLoop(copy, approve(copy), { ...options, model: scripted([textTurn('ok')]) })),
    );
    expect(settled.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(runs).toHaveLength(1);
  });

  it('a state written before resume tokens existed is resumed once too (its digest stands in)', async () => {
    const { paused: state, runs, catalogue, session, journal } = await paused();
    const { resumeToken: _token, ...older } = state;
    const options = { catalogue, session, journal, model: scripted([textTurn('ok')]) };
    await resumeLoop(older, approve(older), options);
    await expect(resumeLoop(older, approve(older), options)).rejects.toBeInstanceOf(PausedRunResumedError);
    expect(runs).toHaveLength(1);
  });

  it('a confirmation store that cannot record tokens is a typed error naming the fix, before anything runs', async () => {
    const { paused: state, runs, catalogue, journal } = await paused();
    const inner = new InMemoryConfirmations();
    const custom: ConfirmationStore = { grant: (c) => inner.grant(c), consume: (c) => inner.consume(c) };
    const session = createSession({
      id: 'session-7',
      humanId: 'marie',
      rights: ['payments:write'],
      confirmations: custom,
    });
    const resuming = resumeLoop(state, approve(state), {
      catalogue,
      session,
      journal,
      model: scripted([textTurn('ok')]),
    });
    await expect(resuming).rejects.toBeInstanceOf(InvalidLoopOptionsError);
    await expect(resuming).rejects.toThrow(/session\.confirmations.*spendResumeToken/);
    expect(runs).toEqual([]);
  });

  it('an engine whose run store consumed the pause passes its own token store', async () => {
    const { paused: state, runs, catalogue, session, journal } = await paused();
    const spent: string[] = [];
    const resumeTokens = {
      spendResumeToken: (token: string) => {
        spent.push(token);
        return true;
      },
    };
    const options = { catalogue, session, journal, resumeTokens, model: scripted([textTurn('ok')]) };
    await resumeLoop(state, approve(state), options);
    expect(spent).toEqual([state.resumeToken]);
    expect(runs).toHaveLength(1);
  });

  it('each pause has its own token: a run paused twice is resumed once per pause', async () => {
    const world = paymentWorld();
    const model = scripted([
      callsTurn([call('pay1', 'virement', { amount: 10, to: 'bob' })]),
      callsTurn([call('pay2', 'virement', { amount: 20, to: 'bob' })]),
      textTurn('ok'),
    ]);
    const options = { ...world, model, confirmation: 'pause' as const };
    const first = await runLoop({ ...options, messages: user });
    const second = await resumeLoop(first.paused as PausedRun, approve(first.paused as PausedRun), options);
    expect(second.paused?.resumeToken).not.toBe(first.paused?.resumeToken);
    const done = await resumeLoop(second.paused as PausedRun, approve(second.paused as PausedRun), options);
    expect(done.status).toBe('completed');
    expect(world.runs).toHaveLength(2);
  });
});
