import { describe, expect, it } from 'vitest';
import {
  callBudget,
  InvalidLoopOptionsError,
  type LoopStreamEvent,
  type Message,
  type PausedRun,
  resumeLoop,
  runLoop,
  stopCondition,
  streamLoop,
  tokenBudget,
  toolCalled,
} from '../../src/index.js';
import { paymentWorld } from '../fixtures.js';
import { alwaysCalling, call, callsTurn, scripted, textTurn } from '../support.js';

const user: Message[] = [{ role: 'user', content: 'Cherche.' }];
const lookup = (id: string, numero = 'A-1234') => call(id, 'chercher_dossier', { numero });

describe('stopWhen', () => {
  it('toolCalled stops after the step in which the named tool ran, not before, and not on a refused call', async () => {
    const { catalogue, session } = paymentWorld();
    const model = scripted([
      callsTurn([call('bad', 'chercher_dossier', { numero: 'nope' })]), // refused by the schema: goes on
      callsTurn([lookup('good')]),
      textTurn('never asked'),
    ]);
    const result = await runLoop({
      model,
      catalogue,
      session,
      messages: user,
      stopWhen: toolCalled('chercher_dossier'),
    });
    expect(result.status).toBe('stopped');
    expect(result.stoppedBy).toBe('toolCalled(chercher_dossier)');
    expect(model.requests).toHaveLength(2);
    // The last reply is in the conversation: the run can be continued.
    expect(result.messages.at(-1)?.role).toBe('tool');
  });

  it('callBudget counts every call the model made and stops once it is reached', async () => {
    const { catalogue, session } = paymentWorld();
    const model = alwaysCalling('chercher_dossier', { numero: 'A-1234' });
    const result = await runLoop({
      model,
      catalogue,
      session,
      messages: user,
      maxTurns: 10,
      stopWhen: [callBudget(3)],
    });
    expect(result.status).toBe('stopped');
    expect(result.stoppedBy).toBe('callBudget(3)');
    expect(model.requests).toHaveLength(3);
  });

  it('tokenBudget sums the usage of the run', async () => {
    const { catalogue, session } = paymentWorld();
    const model = alwaysCalling('chercher_dossier', { numero: 'A-1234' }); // 15 tokens a turn
    const result = await runLoop({ model, catalogue, session, messages: user, stopWhen: [tokenBudget(40)] });
    expect(result.status).toBe('stopped');
    expect(result.usage.totalTokens).toBe(45);
    expect(model.requests).toHaveLength(3);
  });

  it('the first condition that holds names the stop; a custom async predicate sees the step', async () => {
    const { catalogue, session } = paymentWorld();
    const model = alwaysCalling('chercher_dossier', { numero: 'A-1234' });
    const seen: number[] = [];
    const custom = stopCondition('second step', async ({ turn, calls, results }) => {
      seen.push(turn);
      expect(results.map((result) => result.callId)).toEqual(calls.map((part) => part.id));
      return turn === 2;
    });
    const result = await runLoop({ model, catalogue, session, messages: user, stopWhen: [callBudget(5), custom] });
    expect(result.stoppedBy).toBe('second step');
    expect(seen).toEqual([1, 2]);
  });

  it('maxTurns still applies, and a completed run is not "stopped"', async () => {
    const { catalogue, session } = paymentWorld();
    const done = await runLoop({
      model: scripted([textTurn('ok')]),
      catalogue,
      session,
      messages: user,
      stopWhen: callBudget(1),
    });
    expect(done.status).toBe('completed');
    const capped = await runLoop({
      model: alwaysCalling('chercher_dossier', { numero: 'A-1234' }),
      catalogue,
      session,
      messages: user,
      maxTurns: 2,
      stopWhen: callBudget(50),
    });
    expect(capped.status).toBe('max_turns');
  });

  it('streamLoop ends with a stopped loop-end', async () => {
    const { catalogue, session } = paymentWorld();
    const model = alwaysCalling('chercher_dossier', { numero: 'A-1234' });
    const events: LoopStreamEvent[] = [];
    const stream = streamLoop({ model, catalogue, session, messages: user, stopWhen: callBudget(2) });
    for await (const event of stream) events.push(event);
    const end = events.at(-1);
    expect(end?.type === 'loop-end' ? end.result.stoppedBy : undefined).toBe('callBudget(2)');
    expect((await stream.result).status).toBe('stopped');
  });

  it('is checked right after a resume: the approved call that ran is the one it waits for', async () => {
    const { catalogue, session, runs } = paymentWorld();
    const model = scripted([callsTurn([call('pay', 'virement', { amount: 10, to: 'bob' })]), textTurn('never asked')]);
    const stopWhen = toolCalled('virement');
    const first = await runLoop({ model, catalogue, session, messages: user, confirmation: 'pause', stopWhen });
    expect(first.status).toBe('paused');
    const paused = first.paused as PausedRun;
    const pending = paused.pending[0];
    if (pending === undefined) throw new Error('expected a pending call');
    const resumed = await resumeLoop(
      paused,
      [{ callId: pending.callId, approved: true, inputDigest: pending.inputDigest }],
      {
        model,
        catalogue,
        session,
        stopWhen,
      },
    );
    expect(runs).toHaveLength(1);
    expect(resumed.status).toBe('stopped');
    expect(model.requests).toHaveLength(1);
  });

  it('refuses budgets and stop lists that cannot work, with a typed error', async () => {
    const { catalogue, session } = paymentWorld();
    expect(() => callBudget(0)).toThrow(InvalidLoopOptionsError);
    expect(() => tokenBudget(1.5)).toThrow(InvalidLoopOptionsError);
    await expect(
      runLoop({
        model: scripted([textTurn('ok')]),
        catalogue,
        session,
        messages: user,
        stopWhen: ['toolCalled'] as never,
      }),
    ).rejects.toThrow(InvalidLoopOptionsError);
  });
});
