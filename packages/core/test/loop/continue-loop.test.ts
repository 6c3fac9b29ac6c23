import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  continueLoop,
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  InMemoryJournal,
  type InterruptedRun,
  interruptedRunOfError,
  type LoopStreamEvent,
  type Message,
  type ModelTurn,
  ProviderError,
  runLoop,
  streamLoop,
} from '../../src/index.js';
import { call, callsTurn, scripted, textTurn } from '../support.js';

const overloaded = () =>
  new ProviderError({ provider: 'test', code: 'overloaded', message: '529 overloaded', status: 529, retryable: true });

function world() {
  const executions: string[] = [];
  const pay = defineTool({
    name: 'pay',
    description: 'Pays; must never run twice for the same call.',
    inputSchema: { type: 'object', properties: { ref: { type: 'string' } }, required: ['ref'] },
    right: everySession,
    run: ({ ref }) => {
      executions.push(ref);
      return `paid ${ref}`;
    },
  });
  return {
    executions,
    catalogue: createCatalogue([pay]),
    session: createSession({ id: 's', humanId: 'h' }),
    journal: new InMemoryJournal(),
  };
}

/** Five turns: two of calls, the failure on turn 3, then two more of calls and the final answer. */
const BEFORE: readonly ModelTurn[] = [
  callsTurn([call('t1a', 'pay', { ref: 'r1a' }), call('t1b', 'pay', { ref: 'r1b' })]),
  callsTurn([call('t2a', 'pay', { ref: 'r2a' })]),
];
const AFTER: readonly ModelTurn[] = [
  callsTurn([call('t3a', 'pay', { ref: 'r3a' })]),
  callsTurn([call('t4a', 'pay', { ref: 'r4a' })]),
  textTurn('all paid'),
];
const user: Message[] = [{ role: 'user', content: 'pay everything' }];

function failingOnTurn3() {
  return scripted([
    ...BEFORE,
    () => {
      throw overloaded();
    },
  ]);
}

describe('an interrupted run is continued without re-running anything', () => {
  it('runLoop: the error carries the state; continued (through JSON) in a fresh loop, every call ran once', async () => {
    const w = world();
    const error = await runLoop({ ...w, model: failingOnTurn3(), messages: user, runId: 'run-9' }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProviderError);
    const interrupted = interruptedRunOfError(error);
    expect(interrupted).toMatchObject({
      version: 1,
      runId: 'run-9',
      turn: 3,
      answeredCallIds: ['t1a', 't1b', 't2a'],
      error: { code: 'overloaded', retryable: true },
    });
    expect(w.executions).toEqual(['r1a', 'r1b', 'r2a']);

    // Stored and read back, as another process would.
    const stored = JSON.parse(canonicalJson(interrupted as never)) as InterruptedRun;
    const model = scripted(AFTER);
    const result = await continueLoop(stored, { ...w, model });
    expect(result.status).toBe('completed');
    expect(result.text).toBe('all paid');
    expect(result.runId).toBe('run-9');
    expect(result.turns).toHaveLength(5);
    expect(w.executions).toEqual(['r1a', 'r1b', 'r2a', 'r3a', 'r4a']);
    // The continued request is the failed one: the conversation up to the turn-2 reply.
    expect(model.requests[0]?.messages).toEqual(stored.messages);
    expect(w.journal.entries.map((entry) => entry.callId)).toEqual(['t1a', 't1b', 't2a', 't3a', 't4a']);
  });

  it('streamLoop: the error event carries the same state, and continuing from it completes', async () => {
    const w = world();
    const stream = streamLoop({ ...w, model: failingOnTurn3(), messages: user });
    const events: LoopStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of stream) events.push(event);
      })(),
    ).rejects.toBeInstanceOf(ProviderError);
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    const interrupted = last?.type === 'error' ? last.interrupted : undefined;
    expect(interrupted?.turn).toBe(3);
    await expect(stream.result).rejects.toMatchObject({ interrupted });
    const result = await continueLoop(interrupted as InterruptedRun, { ...w, model: scripted(AFTER) });
    expect(result.status).toBe('completed');
    expect(w.executions).toEqual(['r1a', 'r1b', 'r2a', 'r3a', 'r4a']);
  });

  it('refuses a state whose last turn has calls without results', async () => {
    const w = world();
    const bad: InterruptedRun = {
      version: 1,
      runId: 'r',
      turn: 2,
      messages: [...user, { role: 'assistant', content: [call('x', 'pay', { ref: 'x' })] }],
      turns: [],
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      answeredCallIds: [],
      error: { name: 'Error', message: 'x' },
    };
    await expect(async () => continueLoop(bad, { ...w, model: scripted([]) })).rejects.toThrow(/no results/);
  });
});
