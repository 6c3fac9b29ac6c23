// A run given a list of models: when the model asked fails a turn with a retryable provider error, the next
// one answers that same turn, and the run goes on. Nothing runs twice, the run's safety does not change with
// the model, and every turn says (in the result and the journal) which model answered it.
import { describe, expect, it } from 'vitest';
import {
  type AnsweringModelNote,
  answeringModelOf,
  backToPrimaryAfter,
  canonicalJson,
  continueLoop,
  fallbackModel,
  InMemoryJournal,
  type InterruptedRun,
  InvalidLoopOptionsError,
  interruptedRunOfError,
  type LoopStreamEvent,
  type Message,
  type Model,
  type ModelRequest,
  type ModelTurn,
  type PausedRun,
  ProviderError,
  type RetryEvent,
  resumeLoop,
  runLoop,
  streamLoop,
} from '../../src/index.js';
import { injectedPayment, injectionWorld, paymentWorld } from '../fixtures.js';
import { call, callsTurn, type FakeModel, scripted, textTurn, turnWith } from '../support.js';

const user: Message[] = [{ role: 'user', content: 'Paie 10 à Bob et trouve A-1234.' }];

const overloaded = (provider: string) =>
  new ProviderError({ provider, code: 'overloaded', message: 'Overloaded', status: 529, retryable: true });
const badRequest = (provider: string) =>
  new ProviderError({ provider, code: 'invalid_request', message: 'bad', status: 400, retryable: false });

type Step = ModelTurn | ((request: ModelRequest) => ModelTurn | Promise<ModelTurn>);

/** A scripted model under a provider's name, so its turns carry that provider's metadata. */
function as(provider: string, modelId: string, turns: readonly Step[]): FakeModel {
  return { ...scripted(turns), provider, modelId };
}

const fails = (provider: string) => () => {
  throw overloaded(provider);
};

/** Turn 1 of an Anthropic-like primary: signed thinking, then a lookup and an irreversible payment. */
const primaryTurn1 = turnWith([
  { type: 'reasoning', text: 'Lookup first, then pay.', providerMetadata: { anthropic: { signature: 'sig-1' } } },
  call('toolu_01', 'chercher_dossier', { numero: 'A-1234' }, { providerMetadata: { anthropic: { caller: 'direct' } } }),
  call('toolu_02', 'virement', { amount: 10, to: 'bob' }),
]);

const approveAll = (paused: PausedRun) =>
  paused.pending.map((pending) => ({ callId: pending.callId, approved: true, inputDigest: pending.inputDigest }));

describe('fallback inside a run', () => {
  it('the secondary answers the turn the primary failed (529); each tool ran once; the approval held', async () => {
    const w = paymentWorld();
    const journal = new InMemoryJournal();
    const primary = as('anthropic', 'claude-test', [primaryTurn1, fails('anthropic')]);
    const secondary = as('openai', 'gpt-test', [textTurn('Virement effectué, dossier trouvé.')]);
    const first = await runLoop({
      model: [primary, secondary],
      catalogue: w.catalogue,
      session: w.session,
      journal,
      messages: user,
      confirmation: 'pause',
    });
    expect(first.status).toBe('paused');
    const stored = JSON.parse(canonicalJson(first.paused as PausedRun)) as PausedRun;
    const result = await resumeLoop(stored, approveAll(stored), {
      model: [primary, secondary],
      catalogue: w.catalogue,
      session: w.session,
      journal,
    });
    expect(result.status).toBe('completed');
    expect(w.runs).toEqual([{ amount: 10, to: 'bob' }]);
    const executed = journal.entries.filter((entry) => entry.verdict === 'executed').map((entry) => entry.toolName);
    expect(executed).toEqual(['chercher_dossier', 'virement']);
    // Turn 2: the primary was asked once and failed; the secondary answered from the same history.
    expect(primary.requests).toHaveLength(2);
    expect(secondary.requests).toHaveLength(1);
    expect(result.turns.map((turn) => answeringModelOf(turn))).toEqual([
      { provider: 'anthropic', modelId: 'claude-test', member: 0 },
      {
        provider: 'openai',
        modelId: 'gpt-test',
        member: 1,
        fellBackFrom: [{ provider: 'anthropic', modelId: 'claude-test', member: 0, code: 'overloaded', status: 529 }],
      },
    ]);
    const notes = journal.notes.filter((note): note is AnsweringModelNote => note.kind === 'answering_model');
    expect(notes.map((note) => [note.turn, note.provider, note.modelId, note.fellBackFrom?.[0]?.status])).toEqual([
      [1, 'anthropic', 'claude-test', undefined],
      [2, 'openai', 'gpt-test', 529],
    ]);
  });

  it("the secondary's request: the primary's thinking and metadata left out, calls and results paired", async () => {
    const w = paymentWorld();
    const primary = as('anthropic', 'claude-test', [primaryTurn1, fails('anthropic')]);
    const secondary = as('openai', 'gpt-test', [textTurn('ok')]);
    const session = { ...w.session };
    const first = await runLoop({ model: [primary, secondary], ...w, session, messages: user, confirmation: 'pause' });
    const paused = first.paused as PausedRun;
    await resumeLoop(paused, approveAll(paused), { model: [primary, secondary], ...w, session });
    const sent = secondary.requests[0]?.messages ?? [];
    const assistant = sent.find((message) => message.role === 'assistant');
    expect(assistant?.content).toEqual([
      call('toolu_01', 'chercher_dossier', { numero: 'A-1234' }),
      call('toolu_02', 'virement', { amount: 10, to: 'bob' }),
    ]);
    // Nothing of Anthropic's: only the list's own mark of who answered (the circuit's, read by no adapter).
    expect(Object.keys(assistant?.providerMetadata ?? {})).toEqual(['fallback']);
    const reply = sent.find((message) => message.role === 'tool');
    expect(reply?.role === 'tool' && reply.content.map((result) => result.callId)).toEqual(['toolu_01', 'toolu_02']);
    // The primary itself was sent its own thinking back on turn 2 (it failed, but the request was right).
    const back = primary.requests[1]?.messages.find((message) => message.role === 'assistant');
    expect(back?.content[0]).toEqual(primaryTurn1.content[0]);
  });

  it('the loop retries the primary first (its retry policy), then falls over', async () => {
    const primary = as('anthropic', 'a', [fails('anthropic'), fails('anthropic')]);
    const secondary = as('google', 'g', [textTurn('ok')]);
    const retries: RetryEvent[] = [];
    const w = paymentWorld();
    const result = await runLoop({
      model: [primary, secondary],
      ...w,
      messages: user,
      retry: { attempts: 2, baseDelayMs: 0 },
      hooks: { onRetry: (event) => void retries.push(event) },
    });
    expect(result.status).toBe('completed');
    expect(primary.requests).toHaveLength(2);
    expect(retries.map((event) => event.attempt)).toEqual([1]);
    expect(answeringModelOf(result.turns[0] as ModelTurn)?.fellBackFrom?.map((failed) => failed.member)).toEqual([0]);
  });

  it('a non-retryable error is the run’s: no fallback, the run is interrupted', async () => {
    const primary = as('anthropic', 'a', [
      () => {
        throw badRequest('anthropic');
      },
    ]);
    const secondary = as('openai', 'o', [textTurn('never')]);
    const w = paymentWorld();
    const error = await runLoop({ model: [primary, secondary], ...w, messages: user }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(secondary.requests).toHaveLength(0);
  });

  it('stays on the secondary for later turns by default; backToPrimaryAfter(n) goes back', async () => {
    const w = paymentWorld();
    const lookups = (n: number) => callsTurn([call(`l${n}`, 'chercher_dossier', { numero: `A-${n}` })]);
    const stay = {
      primary: as('anthropic', 'a', [fails('anthropic')]),
      secondary: as('openai', 'o', [lookups(1), lookups(2), textTurn('done')]),
    };
    const stayed = await runLoop({ model: [stay.primary, stay.secondary], ...w, messages: user });
    expect(stayed.status).toBe('completed');
    expect([stay.primary.requests.length, stay.secondary.requests.length]).toEqual([1, 3]);

    const back = {
      primary: as('anthropic', 'a', [fails('anthropic'), textTurn('back on the primary')]),
      secondary: as('openai', 'o', [lookups(1), lookups(2)]),
    };
    const model = fallbackModel([back.primary, back.secondary], { policy: backToPrimaryAfter(2) });
    const returned = await runLoop({ model, ...w, messages: user });
    expect(returned.status).toBe('completed');
    expect(returned.turns.map((turn) => answeringModelOf(turn)?.member)).toEqual([1, 1, 0]);
  });

  it('a policy that gives up leaves the run interrupted; continueLoop with the list goes on, nothing re-run', async () => {
    const w = paymentWorld();
    const journal = new InMemoryJournal();
    const primary = as('anthropic', 'a', [
      callsTurn([call('l1', 'chercher_dossier', { numero: 'A-1234' })]),
      fails('anthropic'),
      textTurn('done'),
    ]);
    const secondary = as('openai', 'o', []);
    const giveUp = fallbackModel([primary, secondary], { policy: { onFailure: () => 'give_up' } });
    const error = await runLoop({ model: giveUp, ...w, journal, messages: user }).catch((caught) => caught);
    const interrupted = interruptedRunOfError(error);
    expect(interrupted?.turn).toBe(2);
    expect(secondary.requests).toHaveLength(0);
    const stored = JSON.parse(canonicalJson(interrupted as InterruptedRun)) as InterruptedRun;
    const result = await continueLoop(stored, { model: [primary, secondary], ...w, journal });
    expect(result.status).toBe('completed');
    expect(journal.entries.filter((entry) => entry.verdict === 'executed')).toHaveLength(1);
    expect(result.turns.map((turn) => answeringModelOf(turn)?.member)).toEqual([0, 0]);
  });

  it('continued after every model failed, the run starts on the model it was on', async () => {
    const w = paymentWorld();
    const primary = as('anthropic', 'a', [fails('anthropic'), fails('anthropic')]);
    const secondary = as('openai', 'o', [
      callsTurn([call('l1', 'chercher_dossier', { numero: 'A-1234' })]),
      fails('openai'),
      textTurn('done'),
    ]);
    const error = await runLoop({ model: [primary, secondary], ...w, messages: user }).catch((caught) => caught);
    const interrupted = interruptedRunOfError(error) as InterruptedRun;
    expect(interrupted.turn).toBe(2);
    // Turn 2: the secondary (where the run was) failed, then the primary: every model was asked once.
    expect([primary.requests.length, secondary.requests.length]).toEqual([2, 2]);
    const result = await continueLoop(JSON.parse(canonicalJson(interrupted)) as InterruptedRun, {
      model: [primary, secondary],
      ...w,
    });
    expect(result.status).toBe('completed');
    expect(primary.requests).toHaveLength(2);
    expect(result.turns.map((turn) => answeringModelOf(turn)?.member)).toEqual([1, 1]);
  });

  it('taint carries over: untrusted output read on the primary gates the secondary’s injected calls', async () => {
    const w = injectionWorld();
    const primary = as('anthropic', 'a', [callsTurn([call('m1', 'read_mail', {})]), fails('anthropic')]);
    const secondary = as('openai', 'o', [
      callsTurn([call('s1', 'share_document', { document: 'budget-2027.xlsx' }), call('p1', 'pay', injectedPayment)]),
    ]);
    const result = await runLoop({ model: [primary, secondary], ...w, messages: user, confirmation: 'pause' });
    expect(result.status).toBe('paused');
    expect(w.done).toEqual([]);
    expect(result.paused?.pending.map((pending) => pending.toolName)).toEqual(['share_document', 'pay']);
    for (const pending of result.paused?.pending ?? []) {
      expect(pending.request?.untrustedSources.map((source) => source.callId)).toEqual(['m1']);
    }
  });

  it('streamLoop: a model that fails before its first event falls over; the events are the secondary’s', async () => {
    const w = paymentWorld();
    const primary: Model = {
      provider: 'anthropic',
      modelId: 'a',
      generate: () => Promise.reject(new Error('streams only')),
      // biome-ignore lint/correctness/useYield: fails before its first event, as a 529 does
      async *stream() {
        throw overloaded('anthropic');
      },
    };
    const secondary = as('openai', 'o', [textTurn('streamed answer')]);
    const stream = streamLoop({ model: [primary, secondary], ...w, messages: user });
    const events: LoopStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;
    expect(result.status).toBe('completed');
    expect(events.some((event) => event.type === 'error')).toBe(false);
    expect(events.filter((event) => event.type === 'text-delta').map((event) => 'text' in event && event.text)).toEqual(
      ['streamed answer'],
    );
    expect(answeringModelOf(result.turns[0] as ModelTurn)?.provider).toBe('openai');
  });

  it('a run on one model is unchanged: no mark, no note', async () => {
    const w = paymentWorld();
    const journal = new InMemoryJournal();
    const result = await runLoop({ model: scripted([textTurn('hi')]), ...w, journal, messages: user });
    expect(answeringModelOf(result.turns[0] as ModelTurn)).toBeUndefined();
    expect(journal.notes).toEqual([]);
  });

  it('a model that throws before its promise, or answers without one, is asked like any other', async () => {
    const w = paymentWorld();
    const plain: Model = {
      provider: 'openai',
      modelId: 'plain',
      // Plain JavaScript: a turn, not a promise of one.
      generate: (() => textTurn('plain answer')) as unknown as Model['generate'],
    };
    const throwsAtOnce: Model = {
      provider: 'anthropic',
      modelId: 'sync',
      generate: () => {
        throw overloaded('anthropic');
      },
    };
    const result = await runLoop({ model: [throwsAtOnce, plain], ...w, messages: user, retry: { attempts: 1 } });
    expect(result.status).toBe('completed');
    expect(answeringModelOf(result.turns[0] as ModelTurn)).toMatchObject({ modelId: 'plain', member: 1 });
  });

  it('a policy hook that throws fails the turn as a rejection, not out of the model call', async () => {
    const hook = new Error('policy bug');
    const model = fallbackModel([scripted([textTurn('hi')])], {
      policy: {
        beforeTurn: () => {
          throw hook;
        },
      },
    });
    const answer = model.generate({ messages: user, tools: [] });
    await expect(answer).rejects.toBe(hook);
  });

  it('an empty list or a list holding something that is not a model is a typed error naming the option', async () => {
    const w = paymentWorld();
    await expect(runLoop({ model: [], ...w, messages: user })).rejects.toThrow(InvalidLoopOptionsError);
    expect(() => streamLoop({ model: [scripted([]), {} as Model], ...w, messages: user })).toThrow(/model\[1\]/);
  });
});
