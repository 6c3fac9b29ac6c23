// `onEvent` on runLoop and resumeLoop: the same events streamLoop yields, the resumed calls' verdicts and
// results too, and nothing about the run changes with a listener, even one that throws.
import { describe, expect, it } from 'vitest';
import { type LoopStreamEvent, type Message, resumeLoop, runLoop, streamLoop } from '../../src/index.js';
import { paymentWorld } from '../fixtures.js';
import { call, callsTurn, streaming, textTurn } from '../support.js';

const user: Message[] = [{ role: 'user', content: 'Paie 10 à Bob et trouve A-1234.' }];

function world() {
  const { runs, catalogue, session } = paymentWorld();
  const model = streaming([
    callsTurn([
      call('lookup', 'chercher_dossier', { numero: 'A-1234' }),
      call('pay', 'virement', { amount: 10, to: 'bob' }),
    ]),
    textTurn('Virement effectué.'),
  ]);
  return { runs, catalogue, session, model };
}

/** What may differ between two runs of one script: how long each call took. */
function comparable(events: readonly LoopStreamEvent[]): unknown {
  return JSON.parse(JSON.stringify(events, (key, value) => (key === 'durationMs' ? undefined : value)));
}

describe('onEvent', () => {
  it('runLoop tells the events streamLoop yields, model deltas included', async () => {
    const told: LoopStreamEvent[] = [];
    const listened = await runLoop({
      ...world(),
      messages: user,
      runId: 'run-1',
      onEvent: (event) => told.push(event),
    });
    const read: LoopStreamEvent[] = [];
    for await (const event of streamLoop({ ...world(), messages: user, runId: 'run-1' })) read.push(event);
    expect(told.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(1);
    expect(comparable(told)).toEqual(comparable(read));
    expect(listened.status).toBe('completed');
  });

  it('resumeLoop tells the decided calls’ verdicts and results, the reply, then the next turns; a throwing listener changes nothing', async () => {
    const run = async (onEvent?: (event: LoopStreamEvent) => void) => {
      const w = world();
      const paused = (await runLoop({ ...w, messages: user, confirmation: 'pause' })).paused;
      if (paused === undefined) throw new Error('expected a paused run');
      const pending = paused.pending[0];
      const decisions = [{ callId: 'pay', approved: true, inputDigest: pending?.inputDigest as string }];
      const result = await resumeLoop(paused, decisions, { ...w, ...(onEvent === undefined ? {} : { onEvent }) });
      return { result, runs: w.runs };
    };
    const told: LoopStreamEvent[] = [];
    const listened = await run((event) => told.push(event));
    expect(told[0]).toMatchObject({
      type: 'call-verdict',
      turn: 1,
      call: { id: 'pay' },
      verdict: { kind: 'executed' },
    });
    expect(told[1]).toMatchObject({ type: 'tool-result', turn: 1, result: { callId: 'pay', isError: false } });
    expect(told[2]).toMatchObject({ type: 'reply', turn: 1 });
    expect(told[3]).toMatchObject({ type: 'turn-start', turn: 2 });
    expect(told.at(-1)).toMatchObject({ type: 'loop-end', result: { status: 'completed' } });

    const quiet = await run();
    const throwing = await run(() => {
      throw new Error('the listener failed');
    });
    for (const other of [quiet, throwing]) {
      expect(other.result.messages).toEqual(listened.result.messages);
      expect(other.runs).toEqual(listened.runs);
    }
    expect(listened.runs).toHaveLength(1);
  });
});
