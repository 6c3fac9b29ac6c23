// A run that read untrusted output and was then interrupted by the provider (429, 529, a cut stream) and
// continued with `continueLoop`: the untrusted sources travel with the interrupted state, so an injected
// call and a confirmation granted before the read are gated after the continuation exactly as before it.
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  confirmationFor,
  continueLoop,
  type InterruptedRun,
  interruptedRunOfError,
  type LoopResult,
  type Message,
  type Model,
  type ModelTurn,
  ProviderError,
  resumeLoop,
  runLoop,
  type StreamEvent,
  streamLoop,
  turnStreamEvents,
} from '../../src/index.js';
import { injectedPayment, injectionWorld } from '../fixtures.js';
import { call, callsTurn, scripted, textTurn } from '../support.js';

const attacker = { document: 'budget-2027.xlsx', with: 'mallory@evil.example' };
const payment = injectedPayment;
const world = injectionWorld;

const user: Message[] = [{ role: 'user', content: 'Summarise my mail.' }];
const readTurn = callsTurn([call('m1', 'read_mail', {})]);
const injectedTurn = callsTurn([call('s1', 'share_document', attacker), call('p1', 'pay', payment)]);

const rateLimited = () =>
  new ProviderError({ provider: 'test', code: 'rate_limited', message: '429', status: 429, retryable: true });
const overloaded = () =>
  new ProviderError({ provider: 'test', code: 'overloaded', message: '529', status: 529, retryable: true });

/** Reads the mail on turn 1, fails on turn 2 with `error`: the interrupted state the error carries. */
async function interruptedAfterRead(w: ReturnType<typeof world>, error: () => Error): Promise<InterruptedRun> {
  const model = scripted([
    readTurn,
    () => {
      throw error();
    },
  ]);
  const failed = await runLoop({ ...w, model, messages: user, confirmation: 'pause' }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  const interrupted = interruptedRunOfError(failed);
  if (interrupted === undefined) throw new Error('expected an interrupted run');
  return interrupted;
}

/** A model whose stream of turn 2 is cut after its first event, with a retryable connection error. */
function cutOnTurn2(): Model {
  const script: readonly ModelTurn[] = [readTurn];
  let request = 0;
  return {
    provider: 'test',
    modelId: 'cut',
    generate: () => Promise.reject(new Error('streams only')),
    async *stream(): AsyncIterable<StreamEvent> {
      const turn = script[request++];
      if (turn === undefined) {
        yield* turnStreamEvents(injectedTurn, { fragmentLength: 5 }).slice(0, 1);
        yield {
          type: 'error',
          error: new ProviderError({ provider: 'test', code: 'connection', message: 'cut', retryable: true }),
        };
        return;
      }
      yield* turnStreamEvents(turn, { fragmentLength: 5 });
      yield { type: 'turn-end', turn, incompleteToolCallIds: [] };
    },
  };
}

async function continued(w: ReturnType<typeof world>, interrupted: InterruptedRun): Promise<LoopResult> {
  // Stored and read back as an application would, in another process.
  const stored = JSON.parse(canonicalJson(interrupted)) as InterruptedRun;
  return continueLoop(stored, { ...w, model: scripted([injectedTurn, textTurn('done')]), confirmation: 'pause' });
}

function expectGated(w: ReturnType<typeof world>, result: LoopResult): void {
  // Nothing ran: the injected share and the stale payment both wait for a fresh, informed confirmation.
  expect(w.done).toEqual([]);
  expect(result.status).toBe('paused');
  const pending = result.paused?.pending ?? [];
  expect(pending.map((call) => call.toolName)).toEqual(['share_document', 'pay']);
  for (const call of pending) {
    expect(call.request?.untrustedSources.map((source) => [source.callId, source.turn])).toEqual([['m1', 1]]);
  }
  // The stale approval is still there, unused.
  expect(w.confirmations.outstanding()).toEqual([confirmationFor('pay', payment, { humanId: 'alice', anyRun: true })]);
  expect(w.journal.entries.filter((entry) => entry.verdict === 'executed').map((entry) => entry.toolName)).toEqual([
    'read_mail',
  ]);
}

describe('a run continued after the provider failed keeps its untrusted sources', () => {
  it('after a 529: the injected call and the stale approval are gated, as they would have been', async () => {
    const w = world();
    const interrupted = await interruptedAfterRead(w, overloaded);
    expect(interrupted.provenance?.sources.map((source) => source.callId)).toEqual(['m1']);
    expectGated(w, await continued(w, interrupted));
  });

  it('after a 429', async () => {
    const w = world();
    expectGated(w, await continued(w, await interruptedAfterRead(w, rateLimited)));
  });

  it('after a cut stream (streamLoop)', async () => {
    const w = world();
    const stream = streamLoop({ ...w, model: cutOnTurn2(), messages: user, confirmation: 'pause' });
    let interrupted: InterruptedRun | undefined;
    try {
      for await (const event of stream) if (event.type === 'error') interrupted = event.interrupted;
    } catch {
      // the stream rethrows the model's error after its `error` event
    }
    if (interrupted === undefined) throw new Error('expected an interrupted run');
    expect(interrupted.turn).toBe(2);
    expectGated(w, await continued(w, interrupted));
  });

  it('a state written without its sources (an earlier version) counts every tool result as untrusted', async () => {
    const w = world();
    const { provenance: _dropped, ...older } = await interruptedAfterRead(w, overloaded);
    const result = await continued(w, older as InterruptedRun);
    expect(w.done).toEqual([]);
    expect(result.paused?.pending.map((call) => call.toolName)).toEqual(['share_document', 'pay']);
    // Read as a conversation the run started from: the mail counts from turn 0.
    expect(result.paused?.pending[0]?.request?.untrustedSources.map((source) => source.turn)).toEqual([0]);
  });

  it('a source moved to a later turn is read at the turn its result was answered in', async () => {
    const w = world();
    const interrupted = await interruptedAfterRead(w, overloaded);
    const sources = interrupted.provenance?.sources ?? [];
    const moved: InterruptedRun = { ...interrupted, provenance: { sources: sources.map((s) => ({ ...s, turn: 9 })) } };
    expectGated(w, await continued(w, moved));
  });

  it("the continued run reports the run's sources, and the human's informed approval runs each call once", async () => {
    const w = world();
    const result = await continued(w, await interruptedAfterRead(w, overloaded));
    expect(result.untrustedSources?.map((source) => source.callId)).toEqual(['m1']);
    const paused = result.paused;
    if (paused === undefined) throw new Error('expected a pause');
    const approvals = paused.pending.map((call) => ({
      callId: call.callId,
      approved: true,
      inputDigest: call.inputDigest,
    }));
    const resumed = await resumeLoop(paused, approvals, { ...w, model: scripted([textTurn('done')]) });
    expect(resumed.status).toBe('completed');
    expect(w.done.map((action) => action.tool)).toEqual(['share_document', 'pay']);
    expect(w.confirmations.outstanding()).toEqual([
      confirmationFor('pay', payment, { humanId: 'alice', anyRun: true }),
    ]);
  });
});
