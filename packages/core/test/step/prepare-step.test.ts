import { describe, expect, it } from 'vitest';
import {
  InMemoryJournal,
  InvalidLoopOptionsError,
  type LoopStreamEvent,
  type Message,
  type PausedRun,
  resumeLoop,
  runLoop,
  type StepContext,
  streamLoop,
  toolResultText,
} from '../../src/index.js';
import { paymentWorld } from '../fixtures.js';
import { call, callsTurn, scripted, textTurn } from '../support.js';

const user: Message[] = [{ role: 'user', content: 'Trouve A-1234 puis paie 10 à Bob.' }];

describe('prepareStep', () => {
  it('changes the tools, tool choice, system text and model of each call, and the journal keeps the plan', async () => {
    const { catalogue, session } = paymentWorld();
    const journal = new InMemoryJournal();
    const first = scripted([callsTurn([call('look', 'chercher_dossier', { numero: 'A-1234' })])]);
    const second = { ...scripted([textTurn('fini')]), modelId: 'second' };
    const seen: StepContext[] = [];
    const result = await runLoop({
      model: first,
      catalogue,
      session,
      journal,
      messages: user,
      system: 'base',
      prepareStep: (context) => {
        seen.push(context);
        return context.turn === 1
          ? { activeTools: ['chercher_dossier'], toolChoice: { type: 'tool', name: 'chercher_dossier' } }
          : { activeTools: [], toolChoice: 'none', model: second, system: 'answer now' };
      },
    });
    expect(result.status).toBe('completed');
    const [request1] = first.requests;
    const [request2] = second.requests;
    expect(request1?.tools.map((tool) => tool.name)).toEqual(['chercher_dossier']);
    expect(request1?.toolChoice).toEqual({ type: 'tool', name: 'chercher_dossier' });
    expect(request1?.system).toBe('base');
    expect(request2?.tools).toEqual([]);
    expect(request2?.toolChoice).toBe('none');
    expect(request2?.system).toBe('answer now');
    expect(seen.map((context) => context.turn)).toEqual([1, 2]);
    expect(seen[1]?.messages.at(-1)?.role).toBe('tool');
    expect(journal.entries[0]?.step).toEqual({
      turn: 1,
      activeTools: ['chercher_dossier'],
      toolChoice: { type: 'tool', name: 'chercher_dossier' },
      model: 'test:scripted',
    });
  });

  it('passes the same frozen tools array for the same active set (adapters cache by identity)', async () => {
    const { catalogue, session } = paymentWorld();
    const model = scripted([
      callsTurn([call('a', 'chercher_dossier', { numero: 'A-1234' })]),
      callsTurn([call('b', 'chercher_dossier', { numero: 'B-1234' })]),
      textTurn('ok'),
    ]);
    await runLoop({ model, catalogue, session, messages: user, activeTools: ['chercher_dossier'] });
    const [one, two, three] = model.requests;
    expect(one?.tools).toBe(two?.tools);
    expect(two?.tools).toBe(three?.tools);
    expect(Object.isFrozen(one?.tools)).toBe(true);
    const whole = scripted([textTurn('ok')]);
    await runLoop({ model: whole, catalogue, session, messages: user, activeTools: [...catalogue.names] });
    expect(whole.requests[0]?.tools).toBe(catalogue.declarations);
  });

  it('refuses a call to a catalogue tool that is not active at that step, journaled, with the tools available', async () => {
    const { catalogue, session, runs } = paymentWorld();
    const journal = new InMemoryJournal();
    const model = scripted([callsTurn([call('pay', 'virement', { amount: 10, to: 'bob' })]), textTurn('ok')]);
    const result = await runLoop({
      model,
      catalogue,
      session,
      journal,
      messages: user,
      prepareStep: () => ({ activeTools: ['chercher_dossier'] }),
    });
    expect(runs).toEqual([]);
    const reply = result.messages.find((message) => message.role === 'tool');
    const part = reply?.role === 'tool' ? reply.content[0] : undefined;
    expect(part?.isError).toBe(true);
    expect(toolResultText(part?.content ?? '')).toContain('is not available at this step');
    expect(toolResultText(part?.content ?? '')).toContain('Tools available now: chercher_dossier');
    expect(journal.entries[0]).toMatchObject({ verdict: 'refused', reason: 'inactive_tool', toolName: 'virement' });
    expect(journal.entries[0]?.step?.activeTools).toEqual(['chercher_dossier']);
  });

  it('an unknown tool is told the tools of this step only', async () => {
    const { catalogue, session } = paymentWorld();
    const model = scripted([callsTurn([call('x', 'nope', {})]), textTurn('ok')]);
    const result = await runLoop({ model, catalogue, session, messages: user, activeTools: ['chercher_dossier'] });
    const reply = result.messages.find((message) => message.role === 'tool');
    const text = reply?.role === 'tool' ? toolResultText(reply.content[0]?.content ?? '') : '';
    expect(text).toContain('Available tools: chercher_dossier.');
    expect(text).not.toContain('virement');
  });

  it('throws a typed error for settings no provider could be sent', async () => {
    const { catalogue, session } = paymentWorld();
    const model = scripted([textTurn('ok')]);
    await expect(
      runLoop({ model, catalogue, session, messages: user, prepareStep: () => ({ activeTools: ['typo'] }) }),
    ).rejects.toThrow(InvalidLoopOptionsError);
    await expect(
      runLoop({
        model,
        catalogue,
        session,
        messages: user,
        prepareStep: () => ({ activeTools: ['chercher_dossier'], toolChoice: { type: 'tool', name: 'virement' } }),
      }),
    ).rejects.toThrow(/not offered at this step/);
    await expect(
      runLoop({
        model,
        catalogue,
        session,
        messages: user,
        prepareStep: () => ({ activeTools: [], toolChoice: 'required' }),
      }),
    ).rejects.toThrow(/"required" with no tool/);
    await expect(runLoop({ model, catalogue, session, messages: user, activeTools: ['typo'] })).rejects.toThrow(
      InvalidLoopOptionsError,
    );
    expect(model.requests).toEqual([]);
  });

  it('shows each step plan on the stream (turn-start) and to onTurn', async () => {
    const { catalogue, session } = paymentWorld();
    const model = scripted([callsTurn([call('a', 'chercher_dossier', { numero: 'A-1234' })]), textTurn('ok')]);
    const plans: unknown[] = [];
    const stream = streamLoop({
      model,
      catalogue,
      session,
      messages: user,
      prepareStep: async ({ turn }) => (turn === 1 ? { activeTools: ['chercher_dossier'] } : { toolChoice: 'none' }),
      hooks: { onTurn: (event) => void plans.push(event.plan) },
    });
    const starts: LoopStreamEvent[] = [];
    for await (const event of stream) if (event.type === 'turn-start') starts.push(event);
    expect(starts.map((event) => (event.type === 'turn-start' ? event.plan : undefined))).toEqual([
      { turn: 1, activeTools: ['chercher_dossier'], model: 'test:scripted' },
      { turn: 2, toolChoice: 'none', model: 'test:scripted' },
    ]);
    expect(plans).toEqual(starts.map((event) => (event.type === 'turn-start' ? event.plan : undefined)));
    expect(model.requests[1]?.tools).toBe(catalogue.declarations);
  });

  it('keeps the paused step plan: the resumed call is checked against the tools of its own step', async () => {
    const { catalogue, session, runs, confirmations: _ } = paymentWorld();
    const journal = new InMemoryJournal();
    const model = scripted([callsTurn([call('pay', 'virement', { amount: 10, to: 'bob' })]), textTurn('fait')]);
    const prepareStep = ({ turn }: StepContext) =>
      turn === 1 ? { activeTools: ['virement'] } : { activeTools: ['chercher_dossier'] };
    const paused = await runLoop({
      model,
      catalogue,
      session,
      journal,
      messages: user,
      confirmation: 'pause',
      prepareStep,
    });
    expect(paused.status).toBe('paused');
    const state = JSON.parse(JSON.stringify(paused.paused)) as PausedRun;
    expect(state.step).toEqual({ turn: 1, activeTools: ['virement'], model: 'test:scripted' });
    const pending = state.pending[0];
    if (pending === undefined) throw new Error('expected a pending call');
    const resumed = await resumeLoop(
      state,
      [{ callId: pending.callId, approved: true, inputDigest: pending.inputDigest }],
      {
        model,
        catalogue,
        session,
        journal,
        prepareStep,
      },
    );
    expect(resumed.status).toBe('completed');
    expect(runs).toEqual([{ amount: 10, to: 'bob' }]);
    expect(journal.entries.at(-1)?.step).toEqual({ turn: 1, activeTools: ['virement'], model: 'test:scripted' });
    // The step after the resume was planned again: only the lookup was offered.
    expect(model.requests[1]?.tools.map((tool) => tool.name)).toEqual(['chercher_dossier']);
  });

  it('refuses a resumed call whose tool its own step did not offer (a tampered or hand-made state)', async () => {
    const { catalogue, session, runs } = paymentWorld();
    const model = scripted([callsTurn([call('pay', 'virement', { amount: 10, to: 'bob' })]), textTurn('ok')]);
    const paused = await runLoop({
      model,
      catalogue,
      session,
      messages: user,
      confirmation: 'pause',
      activeTools: ['virement'],
    });
    const state = paused.paused as PausedRun;
    const narrowed: PausedRun = {
      ...state,
      step: { turn: 1, activeTools: ['chercher_dossier'], model: 'test:scripted' },
    };
    const pending = state.pending[0];
    if (pending === undefined) throw new Error('expected a pending call');
    const resumed = await resumeLoop(
      narrowed,
      [{ callId: pending.callId, approved: true, inputDigest: pending.inputDigest }],
      { model, catalogue, session },
    );
    expect(runs).toEqual([]);
    const reply = resumed.messages.find((message) => message.role === 'tool');
    expect(reply?.role === 'tool' ? reply.content[0]?.isError : undefined).toBe(true);
  });
});
