import { describe, expect, it } from 'vitest';
import {
  argumentDigest,
  canonicalJson,
  createCatalogue,
  createSession,
  InMemoryConfirmations,
  InMemoryJournal,
  InvalidResumeError,
  type Message,
  type PausedRun,
  resumeLoop,
  runLoop,
  type ToolMessage,
  toolResultText,
} from '../../src/index.js';
import { paymentTool, paymentWorld } from '../fixtures.js';
import { call, callsTurn, scripted, textTurn } from '../support.js';

const user: Message[] = [{ role: 'user', content: 'Paie 10 à Bob et trouve A-1234.' }];

function world() {
  const { runs, catalogue, session, confirmations } = paymentWorld();
  const journal = new InMemoryJournal();
  const model = scripted([
    callsTurn([
      call('lookup', 'chercher_dossier', { numero: 'A-1234' }),
      call('pay', 'virement', { amount: 10, to: 'bob' }),
    ]),
    textTurn('Virement effectué.'),
  ]);
  return { runs, catalogue, session, journal, model, confirmations };
}

async function pausedWorld() {
  const w = world();
  const result = await runLoop({ ...w, messages: user, confirmation: 'pause' });
  if (result.paused === undefined) throw new Error('expected a paused run');
  return { ...w, result, paused: result.paused };
}

describe('a paused run at any depth', () => {
  it('a 10,000-deep argument elsewhere in its history: canonicalJson stores it, JSON.parse reads it, it resumes', async () => {
    const { runs, catalogue, session } = paymentWorld();
    const journal = new InMemoryJournal();
    let deep: Record<string, unknown> = { numero: 'A-1234' };
    for (let level = 0; level < 10_000; level += 1) deep = { nested: deep };
    const model = scripted([
      callsTurn([call('deep', 'chercher_dossier', deep)]),
      callsTurn([call('pay', 'virement', { amount: 10, to: 'bob' })]),
      textTurn('ok'),
    ]);
    const result = await runLoop({ model, catalogue, session, journal, messages: user, confirmation: 'pause' });
    const paused = result.paused as PausedRun;
    expect(() => JSON.stringify(paused)).toThrow(RangeError);
    const stored = JSON.parse(canonicalJson(paused as never)) as PausedRun;
    const resumed = await resumeLoop(
      stored,
      stored.pending.map((pending) => ({ callId: pending.callId, approved: true, inputDigest: pending.inputDigest })),
      { model: scripted([textTurn('done')]), catalogue, session, journal },
    );
    expect(resumed.status).toBe('completed');
    expect(runs).toHaveLength(1);
  });
});

describe('an approval is spent or returned at resume', () => {
  const decisions = (paused: PausedRun) =>
    paused.pending.map((pending) => ({ callId: pending.callId, approved: true, inputDigest: pending.inputDigest }));

  it('the signal fired before the approved call ran: it does not run, and no approval is left behind', async () => {
    const { paused, runs, catalogue, journal, confirmations } = await pausedWorld();
    const controller = new AbortController();
    controller.abort();
    const session = createSession({
      id: 'session-7',
      humanId: 'marie',
      rights: ['dossiers:lire', 'payments:write'],
      confirmations,
    });
    const result = await resumeLoop(paused, decisions(paused), {
      model: scripted([textTurn('unused')]),
      catalogue,
      session,
      journal,
      signal: controller.signal,
    });
    expect(result.status).toBe('aborted');
    expect(runs).toEqual([]);
    expect(confirmations.outstanding()).toEqual([]);
    // A later, unrelated run with the same arguments is asked again, not run on the stale approval.
    const later = await runLoop({
      model: scripted([callsTurn([call('again', 'virement', { amount: 10, to: 'bob' })]), textTurn('ok')]),
      catalogue,
      session,
      journal,
      messages: user,
      confirmation: 'pause',
    });
    expect(later.status).toBe('paused');
    expect(runs).toEqual([]);
  });

  it('the session lost the right since the pause: the call is refused and the approval is not kept', async () => {
    const { paused, runs, catalogue, journal, confirmations } = await pausedWorld();
    const demoted = createSession({ id: 'session-7', humanId: 'marie', rights: ['dossiers:lire'], confirmations });
    const result = await resumeLoop(paused, decisions(paused), {
      model: scripted([textTurn('ok')]),
      catalogue,
      session: demoted,
      journal,
    });
    expect(result.status).toBe('completed');
    expect(runs).toEqual([]);
    expect(confirmations.outstanding()).toEqual([]);
  });
});

describe('confirmation mode "pause"', () => {
  it('returns the pending irreversible calls as plain data, with the other results already computed', async () => {
    const { result, paused, runs, journal } = await pausedWorld();
    expect(result.status).toBe('paused');
    expect(runs).toEqual([]);
    expect(paused.pending).toEqual([
      {
        index: 1,
        callId: 'pay',
        toolName: 'virement',
        input: { amount: 10, to: 'bob' },
        inputDigest: argumentDigest({ amount: 10, to: 'bob' }),
      },
    ]);
    expect(paused.results[0]).toMatchObject({ callId: 'lookup', isError: false });
    expect(paused.results[1]).toBeNull();
    expect(paused).toMatchObject({ version: 1, sessionId: 'session-7', humanId: 'marie', turn: 1 });
    expect(JSON.parse(JSON.stringify(paused))).toEqual(paused);
    // The conversation stops at the assistant turn: no half reply is ever put in the messages.
    expect(result.messages.at(-1)?.role).toBe('assistant');
    expect(journal.entries.map((entry) => `${entry.callId} ${entry.verdict}`).sort()).toEqual([
      'lookup executed',
      'pay awaiting_confirmation',
    ]);
  });

  it('resumes after JSON round trip: the approved call runs and the reply holds both results in call order', async () => {
    const { paused, runs, model, ...w } = await pausedWorld();
    const stored = JSON.parse(JSON.stringify(paused)) as PausedRun;
    const pending = stored.pending[0];
    const result = await resumeLoop(
      stored,
      [{ callId: 'pay', approved: true, inputDigest: pending?.inputDigest ?? '' }],
      { model, catalogue: w.catalogue, session: w.session, journal: w.journal },
    );
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Virement effectué.');
    expect(runs).toEqual([{ amount: 10, to: 'bob' }]);
    const reply = result.messages.find((message): message is ToolMessage => message.role === 'tool');
    expect(reply?.content.map((part) => [part.callId, part.isError])).toEqual([
      ['lookup', false],
      ['pay', false],
    ]);
    expect(result.turns).toHaveLength(2);
    expect(result.runId).toBe(paused.runId);
    // The confirmation was single-use: nothing is left to replay.
    expect(w.confirmations.outstanding()).toEqual([]);
    expect(w.journal.entries.at(-1)).toMatchObject({ callId: 'pay', verdict: 'executed', runId: paused.runId });
  });

  it('answers a declined call with a refusal the model can act on, and never runs it', async () => {
    const { paused, runs, model, ...w } = await pausedWorld();
    const result = await resumeLoop(paused, [{ callId: 'pay', approved: false, note: 'pas maintenant' }], {
      model,
      catalogue: w.catalogue,
      session: w.session,
      journal: w.journal,
    });
    expect(runs).toEqual([]);
    const reply = result.messages.find((message): message is ToolMessage => message.role === 'tool');
    expect(reply?.content[1]?.isError).toBe(true);
    expect(toolResultText(reply?.content[1]?.content ?? '')).toMatch(/declined.*pas maintenant/);
    expect(w.journal.entries.at(-1)).toMatchObject({ callId: 'pay', reason: 'confirmation_denied' });
  });

  it('re-runs all checks on resume: a right withdrawn since the pause is refused', async () => {
    const { paused, runs, model, catalogue } = await pausedWorld();
    const demoted = createSession({ id: 'session-7', humanId: 'marie', rights: ['dossiers:lire'] });
    const result = await resumeLoop(paused, [{ callId: 'pay', approved: true }], {
      model,
      catalogue,
      session: demoted,
    });
    expect(runs).toEqual([]);
    const reply = result.messages.find((message): message is ToolMessage => message.role === 'tool');
    expect(toolResultText(reply?.content[1]?.content ?? '')).toMatch(/requires the right "payments:write"/);
  });

  it('refuses to resume on doubtful data', async () => {
    const { paused, model, catalogue, session } = await pausedWorld();
    const options = { model, catalogue, session };
    const approve = [{ callId: 'pay', approved: true }];
    const tampered = JSON.parse(JSON.stringify(paused)) as PausedRun;
    (tampered.pending[0] as { input: unknown }).input = { amount: 1000, to: 'bob' };
    await expect(resumeLoop(tampered, approve, options)).rejects.toBeInstanceOf(InvalidResumeError);
    await expect(
      resumeLoop(
        paused,
        [{ callId: 'pay', approved: true, inputDigest: argumentDigest({ amount: 1000, to: 'bob' }) }],
        options,
      ),
    ).rejects.toThrow(/other arguments/);
    await expect(resumeLoop(paused, [], options)).rejects.toThrow(/no decision for pending call/);
    await expect(resumeLoop(paused, [...approve, { callId: 'ghost', approved: true }], options)).rejects.toThrow(
      /ghost/,
    );
    const stranger = createSession({ id: 'session-8', humanId: 'eve', rights: ['payments:write'] });
    await expect(resumeLoop(paused, approve, { ...options, session: stranger })).rejects.toThrow(/another session/);
  });

  it('in "refuse" mode the model is told instead, and a confirmation granted by the app lets the retry run', async () => {
    const runs: unknown[] = [];
    const confirmations = new InMemoryConfirmations();
    const session = createSession({ id: 's', humanId: 'h', rights: ['payments:write'], confirmations });
    const model = scripted([
      callsTurn([call('p1', 'virement', { amount: 10, to: 'bob' })]),
      callsTurn([call('p2', 'virement', { amount: 10, to: 'bob' })]),
      textTurn('fait'),
    ]);
    const result = await runLoop({
      model,
      catalogue: createCatalogue([paymentTool(runs)]),
      session,
      messages: user,
      hooks: {
        // The application asks its human when it sees the refusal; here the human says yes.
        onCall: ({ runId, call: c, verdict }) => {
          if (verdict.kind === 'refused' && verdict.reason === 'confirmation_required')
            confirmations.confirm(c.name, c.input, { humanId: session.humanId, runId });
        },
      },
    });
    expect(result.status).toBe('completed');
    expect(runs).toEqual([{ amount: 10, to: 'bob' }]);
  });
});
