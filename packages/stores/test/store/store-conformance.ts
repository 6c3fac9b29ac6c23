// The behaviour every store must have, run against each of them (memory, SQLite, PostgreSQL). A harness
// gives a fresh, empty store per test, a second independent handle on the same storage (another worker),
// and raw access to the storage, as someone with write access to the database would have it.
import { randomUUID } from 'node:crypto';
import {
  argumentDigest,
  canonicalJson,
  createCatalogue,
  defineTool,
  everySession,
  InvalidResumeError,
  type ModelTurn,
  type PausedRun,
  ProviderError,
  toolResultText,
} from '@toolcircuit/core';
import { createScriptedModel, toolCallsTurn } from '@toolcircuit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CatalogueChangedError,
  ClaimLostError,
  createDurableRunner,
  type DurableStore,
  type JournalPolicy,
  type JournalRecord,
  type RawJournalRow,
  RunAlreadyExistsError,
  RunClaimConflictError,
  RunClaimHeldError,
  RunNotFoundError,
  RunNotResumableError,
  redactInputFields,
  StoreUnavailableError,
} from '../../src/index.js';
import { chainHash } from '../../src/journal/journal-chain.js';
import {
  approveAll,
  done,
  lookupTool,
  marie,
  startPaused,
  toolReplies,
  transferTool,
  user,
  world,
  worldCatalogue,
} from '../support/world.js';

/** Direct writes to the storage, bypassing the store (and its append-only triggers). */
export interface StorageTamper {
  /** All journal rows as stored, in seq order. */
  rows(): Promise<RawJournalRow[]>;
  /**
   * Replaces the journal with these rows and this head. Returns the store to verify (the same one for
   * databases; a new one loaded from the changed snapshot for memory).
   */
  replaceJournal(rows: readonly RawJournalRow[], head: { seq: number; hash: string }): Promise<DurableStore>;
  /**
   * Overwrites a run's stored paused state (its digest column untouched), as canonical JSON or, with
   * `indented`, as `JSON.stringify(paused, null, 2)`: the same value in another layout.
   */
  replacePausedState(runId: string, paused: PausedRun, layout?: 'canonical' | 'indented'): Promise<void>;
}

/** The text a harness stores for `replacePausedState`. */
export function pausedText(paused: PausedRun, layout: 'canonical' | 'indented' = 'canonical'): string {
  return layout === 'canonical' ? canonicalJson(paused) : JSON.stringify(paused, null, 2);
}

export interface StoreHarness {
  readonly store: DurableStore;
  /** Another handle on the same storage (another connection or pool: another worker). */
  readonly second: DurableStore;
  readonly tamper: StorageTamper;
  close(): Promise<void>;
}

export type StoreFactory = (options?: { readonly journal?: JournalPolicy }) => Promise<StoreHarness>;

/** The store-level decision approving the world's one pending transfer (`pay`), for direct claims. */
function approvedPay(paused: PausedRun) {
  const inputDigest = paused.pending[0]?.inputDigest ?? '';
  return [{ callId: 'pay', index: 1, toolName: 'transfer', inputDigest, approved: true }];
}

/** Decisions for a paused run, with helpers to forge them. */
function approval(paused: PausedRun) {
  return approveAll(paused);
}

/**
 * The journal as short lines. The calls of the first turn run concurrently, so the order of their
 * records (start markers and call entries) is not fixed: that leading group is sorted; everything after it
 * is in journal order.
 */
async function kinds(store: DurableStore, runId?: string): Promise<string[]> {
  const rows = await store.readJournal(runId === undefined ? {} : { runId });
  const lines = rows.map(({ record }) => describeRecord(record));
  const firstOther = rows.findIndex(
    ({ record }) => (record.kind !== 'call' && record.kind !== 'start') || record.turn !== 1,
  );
  const cut = firstOther === -1 ? lines.length : firstOther;
  return [...lines.slice(0, cut).sort(), ...lines.slice(cut)];
}

function describeRecord(record: JournalRecord): string {
  switch (record.kind) {
    case 'call':
      return `call ${record.callId} ${record.verdict}`;
    case 'decision':
      return `decision ${record.callId} ${record.approved ? 'approved' : 'denied'}`;
    case 'start':
      return `start ${record.callId}`;
    case 'outcome_unknown':
      return `outcome_unknown ${record.callId}`;
    case 'recovery':
      return 'recovery';
    case 'retry':
      return `retry turn ${record.turn} attempt ${record.attempt}`;
    case 'note':
      return `note ${record.note} ${record.note === 'provider_part' ? record.partKind : record.provider}`;
  }
}

export function describeStoreConformance(name: string, factory: StoreFactory): void {
  describe(`store conformance: ${name}`, () => {
    let harness: StoreHarness | undefined;
    const open = async (options?: { readonly journal?: JournalPolicy }) => {
      harness = await factory(options);
      return harness;
    };
    afterEach(async () => {
      await harness?.close();
      harness = undefined;
    });

    describe('pause and resume', () => {
      it('stores a paused run with its pending calls, digests, computed results and catalogue fingerprint', async () => {
        const { store } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        const record = await store.getRun('run-1');
        expect(record).toMatchObject({ runId: 'run-1', status: 'paused', sessionId: 'session-7', humanId: 'marie' });
        expect(record?.paused).toEqual(paused);
        expect(record?.paused?.pending).toEqual([
          {
            index: 1,
            callId: 'pay',
            toolName: 'transfer',
            input: { amount: 10, to: 'bob' },
            inputDigest: argumentDigest({ amount: 10, to: 'bob' }),
          },
        ]);
        expect(record?.paused?.results[0]).toMatchObject({ callId: 'lookup', isError: false });
        expect(Object.keys(record?.catalogue.tools ?? {}).sort()).toEqual(['lookup_case', 'transfer']);
        expect(w.executions).toEqual([]);
        expect(await kinds(store)).toEqual(['call lookup executed', 'call pay awaiting_confirmation', 'start lookup']);
      });

      it('resumes through another handle: the approved call runs once, the reply holds every result in call order', async () => {
        const { store, second } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        const result = await w.runner(second, [done]).resume('run-1', approval(paused), { session: marie() });
        expect(result.status).toBe('completed');
        expect(result.unknownOutcomes).toEqual([]);
        expect(w.executions).toEqual([{ amount: 10, to: 'bob' }]);
        const [reply] = toolReplies(result.messages);
        expect(reply?.content.map((part) => [part.callId, part.isError])).toEqual([
          ['lookup', false],
          ['pay', false],
        ]);
        const record = await store.getRun('run-1');
        expect(record?.status).toBe('completed');
        expect(record?.result?.text).toBe(result.text);
        expect(record?.claim).toBeUndefined();
        // The lookup needed no decision: its row was made when it started, and holds its result too.
        expect(record?.calls).toMatchObject([
          { callId: 'lookup', approved: true, state: 'done', turn: 1 },
          { callId: 'pay', approved: true, state: 'done', turn: 1 },
        ]);
        expect(record?.calls.find((call) => call.callId === 'pay')?.result).toEqual(reply?.content[1]);
        expect(await kinds(store)).toEqual([
          'call lookup executed',
          'call pay awaiting_confirmation',
          'start lookup',
          'decision pay approved',
          'start pay',
          'call pay executed',
        ]);
      });

      it('answers a denied call with an isError result and never runs it', async () => {
        const { store } = await open();
        const w = world();
        await startPaused(w, store);
        const result = await w
          .runner(store, [done])
          .resume('run-1', [{ callId: 'pay', approved: false, note: 'not today' }], { session: marie() });
        expect(w.executions).toEqual([]);
        const [reply] = toolReplies(result.messages);
        expect(reply?.content).toHaveLength(2);
        expect(reply?.content[1]?.isError).toBe(true);
        expect(toolResultText(reply?.content[1]?.content ?? '')).toMatch(/declined.*not today/);
        expect(await kinds(store, 'run-1')).toEqual([
          'call lookup executed',
          'call pay awaiting_confirmation',
          'start lookup',
          'decision pay denied',
          'call pay refused',
        ]);
      });

      it('resuming twice fails clearly and changes nothing', async () => {
        const { store } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        await w.runner(store, [done]).resume('run-1', approval(paused), { session: marie() });
        const before = { run: await store.getRun('run-1'), head: await store.journalHead() };
        const again = w.runner(store, [done]).resume('run-1', approval(paused), { session: marie() });
        await expect(again).rejects.toBeInstanceOf(RunNotResumableError);
        await expect(again).rejects.toThrow(/resumed already and has finished/);
        expect(w.executions).toHaveLength(1);
        expect(await store.getRun('run-1')).toEqual(before.run);
        expect(await store.journalHead()).toEqual(before.head);
      });

      it('refuses unknown, missing, duplicated and forged decisions, changing nothing, then resumes', async () => {
        const { store } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        const runner = w.runner(store, [done]);
        const before = { run: await store.getRun('run-1'), head: await store.journalHead() };
        const good = approval(paused);
        const attempts = [
          [...good, { callId: 'ghost', approved: true, inputDigest: argumentDigest({}) }],
          [],
          [...good, ...good],
          [{ callId: 'pay', approved: true, inputDigest: argumentDigest({ amount: 1000, to: 'bob' }) }],
          [{ callId: 'pay', approved: true }],
        ];
        const messages = [
          /ghost/,
          /no decision/,
          /decided twice/,
          /other arguments/,
          /which arguments the human was shown/,
        ];
        for (const [index, decisions] of attempts.entries()) {
          const attempt = runner.resume('run-1', decisions, { session: marie() });
          await expect(attempt).rejects.toBeInstanceOf(InvalidResumeError);
          await expect(attempt).rejects.toThrow(messages[index] as RegExp);
        }
        const stranger = { ...marie(), id: 'session-8', humanId: 'eve' };
        await expect(runner.resume('run-1', good, { session: stranger })).rejects.toThrow(/another session/);
        await expect(runner.resume('nope', good, { session: marie() })).rejects.toBeInstanceOf(RunNotFoundError);
        expect(await store.getRun('run-1')).toEqual(before.run);
        expect(await store.journalHead()).toEqual(before.head);
        expect(w.executions).toEqual([]);
        expect((await runner.resume('run-1', good, { session: marie() })).status).toBe('completed');
        expect(w.executions).toHaveLength(1);
      });

      it('refuses to resume after the catalogue changed, naming the tool, and changes nothing', async () => {
        const { store } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        const before = { run: await store.getRun('run-1'), head: await store.journalHead() };
        const executions: unknown[] = [];
        const reversible = { ...transferTool(executions), irreversible: false };
        const changed = createDurableRunner({
          store,
          catalogue: createCatalogue([lookupTool(), reversible]),
          model: { provider: 'none', modelId: 'none', generate: () => Promise.reject(new Error('not called')) },
        });
        const attempt = changed.resume('run-1', approval(paused), { session: marie() });
        await expect(attempt).rejects.toBeInstanceOf(CatalogueChangedError);
        await expect(attempt).rejects.toThrow(/changed "transfer"/);
        expect(executions).toEqual([]);
        expect(await store.getRun('run-1')).toEqual(before.run);
        expect(await store.journalHead()).toEqual(before.head);
      });

      it('refuses a paused state altered in the storage, and changes nothing', async () => {
        const { store, tamper } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        const forged = structuredClone(paused) as { pending: { input: unknown }[] } & PausedRun;
        (forged.pending[0] as { input: unknown }).input = { amount: 1000, to: 'eve' };
        await tamper.replacePausedState('run-1', forged);
        const head = await store.journalHead();
        const attempt = w.runner(store, [done]).resume('run-1', approval(paused), { session: marie() });
        await expect(attempt).rejects.toThrow(/altered in the store/);
        expect((await store.getRun('run-1'))?.status).toBe('paused');
        expect(await store.journalHead()).toEqual(head);
        expect(w.executions).toEqual([]);
      });

      it('resumes a paused state rewritten in another JSON layout: the same value passes its digest', async () => {
        const { store, tamper } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        await tamper.replacePausedState('run-1', paused, 'indented');
        const result = await w.runner(store, [done]).resume('run-1', approval(paused), { session: marie() });
        expect(result.status).toBe('completed');
        expect(w.executions).toEqual([{ amount: 10, to: 'bob' }]);
      });

      it('refuses a paused state altered and rewritten in another JSON layout', async () => {
        const { store, tamper } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        const forged = structuredClone(paused) as { pending: { input: unknown }[] } & PausedRun;
        (forged.pending[0] as { input: unknown }).input = { amount: 1000, to: 'eve' };
        await tamper.replacePausedState('run-1', forged, 'indented');
        const attempt = w.runner(store, [done]).resume('run-1', approval(paused), { session: marie() });
        await expect(attempt).rejects.toThrow(/altered in the store/);
        expect(w.executions).toEqual([]);
      });

      it('a claim returns the run with the paused state it holds', async () => {
        const { store } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        const record = await store.getRun('run-1');
        const claimed = await store.claimRun({
          runId: 'run-1',
          expectedRevision: record?.revision ?? 0,
          claim: { token: randomUUID(), workerId: 'w', claimedAt: iso(0), leaseExpiresAt: iso(1) },
          turn: 1,
          decisions: approvedPay(paused),
        });
        expect(claimed).toMatchObject({ status: 'resuming', paused, pausedDigest: record?.pausedDigest });
        expect({ ...claimed }.paused).toEqual(paused);
        expect(claimed.interrupted).toBeUndefined();
      });

      it('pauses again on a later turn and resumes that turn too', async () => {
        const { store } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        const second = toolCallsTurn([{ id: 'pay2', name: 'transfer', input: { amount: 5, to: 'carol' } }]);
        const first = await w.runner(store, [second]).resume('run-1', approval(paused), { session: marie() });
        expect(first.status).toBe('paused');
        const record = await store.getRun('run-1');
        expect(record).toMatchObject({ status: 'paused', paused: { turn: 2 } });
        const pausedAgain = record?.paused as PausedRun;
        const final = await w.runner(store, [done]).resume('run-1', approval(pausedAgain), { session: marie() });
        expect(final.status).toBe('completed');
        expect(final.turns).toHaveLength(3);
        expect(w.executions).toEqual([
          { amount: 10, to: 'bob' },
          { amount: 5, to: 'carol' },
        ]);
        expect((await store.getRun('run-1'))?.calls.map((call) => [call.turn, call.callId, call.state])).toEqual([
          [1, 'lookup', 'done'],
          [1, 'pay', 'done'],
          [2, 'pay2', 'done'],
        ]);
      });
    });

    describe('exactly once', () => {
      it('two workers racing to resume, both past their checks: one runs the call, the other is refused', async () => {
        const { store, second } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        // Both workers read the paused run before either claims it, so the claim itself must decide.
        let arrived = 0;
        let release: () => void = () => {};
        const bothRead = new Promise<void>((resolve) => {
          release = resolve;
        });
        const gated = (inner: DurableStore): DurableStore => ({
          ...bind(inner),
          getRun: async (runId) => {
            const record = await inner.getRun(runId);
            arrived += 1;
            if (arrived === 2) release();
            await bothRead;
            return record;
          },
        });
        const outcomes = await Promise.allSettled([
          w
            .runner(gated(store), [done], { workerId: 'worker-a' })
            .resume('run-1', approval(paused), { session: marie() }),
          w
            .runner(gated(second), [done], { workerId: 'worker-b' })
            .resume('run-1', approval(paused), { session: marie() }),
        ]);
        const fulfilled = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        const rejected = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
        expect(fulfilled).toHaveLength(1);
        expect(rejected).toHaveLength(1);
        expect(rejected[0]?.reason).toBeInstanceOf(RunClaimConflictError);
        expect(w.executions).toEqual([{ amount: 10, to: 'bob' }]);
        expect((await kinds(store)).filter((kind) => kind.startsWith('call pay executed'))).toHaveLength(1);
        expect((await kinds(store)).filter((kind) => kind.startsWith('decision'))).toHaveLength(1);
      });

      it('a resume that fails before the tool starts is recovered by running the call, once', async () => {
        const { store, second } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        // The start marker cannot be written (the database went away for a moment): the tool must not run.
        const unreachable: DurableStore = {
          ...bind(store),
          markCallStarted: () => Promise.reject(new Error('store unreachable')),
        };
        const failing = w.runner(unreachable, [done]).resume('run-1', approval(paused), { session: marie() });
        await expect(failing).rejects.toThrow(/store unreachable/);
        expect(w.executions).toEqual([]);
        const interrupted = await store.getRun('run-1');
        expect(interrupted).toMatchObject({
          status: 'interrupted',
          calls: [
            { callId: 'lookup', state: 'done' },
            { callId: 'pay', state: 'intended' },
          ],
        });
        expect(interrupted?.error).toMatch(/store unreachable/);
        await expect(w.runner(store, [done]).resume('run-1', approval(paused), { session: marie() })).rejects.toThrow(
          /Call recover\(\)/,
        );
        const recovered = await w.runner(second, [done]).recover('run-1', { session: marie() });
        expect(recovered.status).toBe('completed');
        expect(recovered.unknownOutcomes).toEqual([]);
        expect(w.executions).toEqual([{ amount: 10, to: 'bob' }]);
        expect(await kinds(store, 'run-1')).toEqual([
          'call lookup executed',
          'call pay awaiting_confirmation',
          'start lookup',
          'decision pay approved',
          'recovery',
          'start pay',
          'call pay executed',
        ]);
      });

      it('a call that had started without a recorded result is never re-run: it is reported, outcome unknown', async () => {
        const { store, second } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        // The application's hook runs after the start marker is committed and before the tool: a crash there
        // leaves exactly the "started, no result" state a killed worker leaves.
        const crashing = w.runner(store, [done], {
          hooks: {
            beforeToolRun: () => {
              throw new Error('worker lost');
            },
          },
        });
        await expect(crashing.resume('run-1', approval(paused), { session: marie() })).rejects.toThrow(/worker lost/);
        expect((await store.getRun('run-1'))?.calls.find((call) => call.callId === 'pay')?.state).toBe('started');

        const recovered = await w.runner(second, [done]).recover('run-1', { session: marie() });
        expect(recovered.status).toBe('completed');
        expect(recovered.unknownOutcomes).toEqual(['pay']);
        expect(w.executions).toEqual([]);
        const [reply] = toolReplies(recovered.messages);
        expect(reply?.content[1]?.isError).toBe(true);
        expect(toolResultText(reply?.content[1]?.content ?? '')).toMatch(/outcome of this call .* is unknown/);
        const record = await store.getRun('run-1');
        expect(record?.calls.find((call) => call.callId === 'pay')).toMatchObject({ callId: 'pay', state: 'unknown' });
        expect(await kinds(store, 'run-1')).toEqual([
          'call lookup executed',
          'call pay awaiting_confirmation',
          'start lookup',
          'decision pay approved',
          'start pay',
          'recovery',
          'outcome_unknown pay',
        ]);
      });

      it('recovery is refused for paused and finished runs and for a live claim unless forced', async () => {
        const { store } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        await expect(w.runner(store, [done]).recover('run-1', { session: marie() })).rejects.toThrow(/is paused/);
        // A worker that claimed the run and is still within its lease.
        const hung = w.runner(store, [done], {
          hooks: { beforeToolRun: () => new Promise<void>(() => {}) },
          workerId: 'hung-worker',
        });
        void hung.resume('run-1', approval(paused), { session: marie() }).catch(() => undefined);
        await until(
          async () => (await store.getRun('run-1'))?.calls.find((call) => call.callId === 'pay')?.state === 'started',
        );
        const live = w.runner(store, [done]).recover('run-1', { session: marie() });
        await expect(live).rejects.toBeInstanceOf(RunClaimHeldError);
        // The refusal names the state, the holder, and both ways forward.
        await expect(live).rejects.toThrow(/the run is "resuming": worker "hung-worker" holds it until .*force: true/);
        await expect(live).rejects.toMatchObject({
          kind: 'store',
          runId: 'run-1',
          status: 'resuming',
          workerId: 'hung-worker',
          retryable: true,
        });
        const forced = await w.runner(store, [done]).recover('run-1', { session: marie(), force: true });
        expect(forced.unknownOutcomes).toEqual(['pay']);
        expect(w.executions).toEqual([]);
        await expect(w.runner(store, [done]).recover('run-1', { session: marie() })).rejects.toThrow(/has finished/);
      });

      it('force-recover while the worker is alive never strands the run: its late result is reused, the run finishes', async () => {
        const { store } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        // The live worker: its call is started, and held just before the tool runs.
        let release: () => void = () => undefined;
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        const live = w.runner(store, [done], { hooks: { beforeToolRun: () => gate }, workerId: 'live-worker' });
        const liveRun = live.resume('run-1', approval(paused), { session: marie() }).then(
          () => undefined,
          (error: unknown) => error,
        );
        await until(
          async () => (await store.getRun('run-1'))?.calls.find((call) => call.callId === 'pay')?.state === 'started',
        );
        // The operator forces recovery; just after its claim, the live worker's tool finishes and its
        // journal entry (with the result) lands before the recovery can mark the call "outcome unknown".
        const racing: DurableStore = {
          ...bind(store),
          recordUnknownOutcome: async (request) => {
            release();
            await until(
              async () => (await store.getRun('run-1'))?.calls.find((call) => call.callId === 'pay')?.state === 'done',
            );
            return store.recordUnknownOutcome(request);
          },
        };
        const forced = await createDurableRunner({
          store: racing,
          catalogue: worldCatalogue(w.executions),
          model: createScriptedModel([done]),
          workerId: 'operator',
        }).recover('run-1', { session: marie(), force: true });
        expect(forced.status).toBe('completed');
        expect(forced.unknownOutcomes).toEqual([]);
        const [reply] = toolReplies(forced.messages);
        expect(reply?.content.map((part) => [part.callId, part.isError])).toEqual([
          ['lookup', false],
          ['pay', false],
        ]);
        expect(await liveRun).toBeInstanceOf(ClaimLostError);
        expect(w.executions).toEqual([{ amount: 10, to: 'bob' }]);
        expect(await store.getRun('run-1')).toMatchObject({
          status: 'completed',
          calls: [{ state: 'done' }, { state: 'done' }],
        });
        expect((await store.verifyJournal()).ok).toBe(true);
      });

      it('a claim holder whose call was settled under it leaves the run interrupted, not stuck resuming', async () => {
        const { store } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        // A store whose start marker fails as a lost claim would, while the claim is still held.
        const failing: DurableStore = {
          ...bind(store),
          markCallStarted: () => Promise.reject(new ClaimLostError('run-1', 'call "pay" is already done')),
        };
        const runner = createDurableRunner({
          store: failing,
          catalogue: worldCatalogue(w.executions),
          model: createScriptedModel([done]),
        });
        await expect(runner.resume('run-1', approval(paused), { session: marie() })).rejects.toBeInstanceOf(
          ClaimLostError,
        );
        expect(await store.getRun('run-1')).toMatchObject({ status: 'interrupted' });
        const recovered = await w.runner(store, [done]).recover('run-1', { session: marie() });
        expect(recovered.status).toBe('completed');
        expect(w.executions).toEqual([{ amount: 10, to: 'bob' }]);
      });

      it('an attempt that could not be closed (store away) is recovered in its own process, without force', async () => {
        const { store } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        const away = () =>
          new StoreUnavailableError({ store: 'test', problem: 'gone', nextStep: 'wait', retryable: true });
        // The database goes away once the run is claimed: the start marker fails, and so does closing it.
        let storeAway = true;
        const blinking: DurableStore = {
          ...bind(store),
          markCallStarted: (request) => (storeAway ? Promise.reject(away()) : store.markCallStarted(request)),
          interruptRun: (request) => (storeAway ? Promise.reject(away()) : store.interruptRun(request)),
        };
        const runner = createDurableRunner({
          store: blinking,
          catalogue: worldCatalogue(w.executions),
          model: createScriptedModel([done]),
          workerId: 'blinking-worker',
        });
        const failed = runner.resume('run-1', approval(paused), { session: marie() });
        await expect(failed).rejects.toBeInstanceOf(StoreUnavailableError);
        await expect(failed).rejects.toMatchObject({ runId: 'run-1', retryable: true });
        await expect(failed).rejects.toThrow(/still "resuming" under this worker's claim.*recover\("run-1"/);
        expect(await store.getRun('run-1')).toMatchObject({
          status: 'resuming',
          claim: { workerId: 'blinking-worker' },
        });
        storeAway = false;
        // Its lease runs for 15 minutes, but this process knows that attempt is over: any runner of it takes
        // the run over without force (a live claim is still refused: see the test above).
        const recovered = await w.runner(store, [done]).recover('run-1', { session: marie() });
        expect(recovered.status).toBe('completed');
        expect(recovered.unknownOutcomes).toEqual([]);
        expect(w.executions).toEqual([{ amount: 10, to: 'bob' }]);
        expect((await store.verifyJournal()).ok).toBe(true);
      });

      it('a worker that lost its claim cannot start a call or finish the run', async () => {
        const { store } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        const record = await store.getRun('run-1');
        const claim = { token: randomUUID(), workerId: 'old', claimedAt: iso(0), leaseExpiresAt: iso(1) };
        await store.claimRun({
          runId: 'run-1',
          expectedRevision: record?.revision ?? 0,
          claim,
          turn: 1,
          decisions: approvedPay(paused),
        });
        const taken = await store.getRun('run-1');
        await store.claimRun({
          runId: 'run-1',
          expectedRevision: taken?.revision ?? 0,
          claim: { ...claim, token: randomUUID(), workerId: 'new' },
          turn: 1,
          recovery: { reason: 'test' },
        });
        const start = { runId: 'run-1', token: claim.token, turn: 1, callId: 'pay', at: iso(2) };
        await expect(store.markCallStarted(start)).rejects.toBeInstanceOf(ClaimLostError);
        await expect(store.markCallStarted(start)).rejects.toThrow(/worker "new" claimed it/);
        await expect(
          store.finishRun({ runId: 'run-1', token: claim.token, at: iso(3), outcome: { status: 'paused', paused } }),
        ).rejects.toBeInstanceOf(ClaimLostError);
        expect((await store.getRun('run-1'))?.calls.find((call) => call.callId === 'pay')?.state).toBe('intended');
      });
    });

    describe('store rules', () => {
      it('a run id is used once', async () => {
        const { store } = await open();
        const w = world();
        await startPaused(w, store);
        await expect(startPaused(w, store)).rejects.toBeInstanceOf(RunAlreadyExistsError);
      });

      it('a claim on a stale revision fails and writes nothing', async () => {
        const { store } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        const record = await store.getRun('run-1');
        const head = await store.journalHead();
        const claim = { token: randomUUID(), workerId: 'w', claimedAt: iso(0), leaseExpiresAt: iso(1) };
        const decision = {
          callId: 'pay',
          index: 1,
          toolName: 'transfer',
          inputDigest: paused.pending[0]?.inputDigest ?? '',
          approved: true,
        };
        await expect(
          store.claimRun({
            runId: 'run-1',
            expectedRevision: (record?.revision ?? 0) + 1,
            claim,
            turn: 1,
            decisions: [decision],
          }),
        ).rejects.toBeInstanceOf(RunClaimConflictError);
        // A claim that fails half-way (its second decision repeats the first) is rolled back entirely.
        await expect(
          store.claimRun({
            runId: 'run-1',
            expectedRevision: record?.revision ?? 0,
            claim,
            turn: 1,
            decisions: [decision, decision],
          }),
        ).rejects.toBeInstanceOf(RunClaimConflictError);
        expect(await store.getRun('run-1')).toEqual(record);
        expect(await store.journalHead()).toEqual(head);
      });

      it('reports its schema version', async () => {
        const { store } = await open();
        expect(await store.schemaVersion()).toBe(5);
      });
    });

    describe('run events', () => {
      const event = (seq: number) => ({ seq, type: seq % 2 === 0 ? 'turn-end' : 'text-delta', data: `{"n":${seq}}` });

      it("appends a run's events in order, reads them after a seq, and keeps the last `keep`", async () => {
        const { store } = await open();
        await startPaused(world(), store, 'run-1');
        await startPaused(world(), store, 'run-2');
        const seqs = (events: readonly { seq: number }[]) => events.map((stored) => stored.seq);
        // Ids as a run server gives them: large, increasing, not consecutive across its stretches.
        const base = 1_796_292_000_000_000;
        await store.appendRunEvents?.({ runId: 'run-1', events: [1, 2, 3].map((n) => event(base + n)), keep: 4 });
        await store.appendRunEvents?.({ runId: 'run-2', events: [event(7)], keep: 4 });
        await store.appendRunEvents?.({ runId: 'run-1', events: [], keep: 4 });
        expect(await store.readRunEvents?.({ runId: 'run-1', afterSeq: 0, limit: 100 })).toEqual(
          [1, 2, 3].map((n) => event(base + n)),
        );
        expect(seqs((await store.readRunEvents?.({ runId: 'run-1', afterSeq: base + 1, limit: 1 })) ?? [])).toEqual([
          base + 2,
        ]);
        // Over the bound, the oldest go; another run's events are not touched.
        await store.appendRunEvents?.({
          runId: 'run-1',
          events: [10, 11, 12].map((n) => event(base + 1000 + n)),
          keep: 4,
        });
        expect(seqs((await store.readRunEvents?.({ runId: 'run-1', afterSeq: 0, limit: 100 })) ?? [])).toEqual([
          base + 3,
          base + 1010,
          base + 1011,
          base + 1012,
        ]);
        expect(await store.readRunEvents?.({ runId: 'run-2', afterSeq: 0, limit: 100 })).toEqual([event(7)]);
        expect(await store.readRunEvents?.({ runId: 'run-3', afterSeq: 0, limit: 100 })).toEqual([]);
      });

      it('refuses an event whose seq is stored already, appending none of its batch', async () => {
        const { store } = await open();
        await startPaused(world(), store, 'run-1');
        await store.appendRunEvents?.({ runId: 'run-1', events: [event(1), event(2)], keep: 100 });
        await expect(
          store.appendRunEvents?.({ runId: 'run-1', events: [event(3), event(2)], keep: 100 }),
        ).rejects.toThrow();
        expect(await store.readRunEvents?.({ runId: 'run-1', afterSeq: 0, limit: 100 })).toEqual([event(1), event(2)]);
      });
    });

    describe('journal', () => {
      it('chains every record: each carries the hash of the previous one, and verify passes', async () => {
        const { store } = await open();
        const w = world();
        const paused = await startPaused(w, store);
        await w.runner(store, [done]).resume('run-1', approval(paused), { session: marie() });
        const rows = await store.readJournal();
        expect(rows.map((row) => row.seq)).toEqual([1, 2, 3, 4, 5, 6]);
        for (const [index, row] of rows.entries()) {
          expect(row.prevHash).toBe(index === 0 ? '0'.repeat(64) : rows[index - 1]?.hash);
          expect(row.hash).toBe(chainHash(row.prevHash, row.record));
        }
        expect(await store.journalHead()).toEqual({ seq: 6, hash: rows[5]?.hash });
        expect(await store.verifyJournal()).toEqual({
          ok: true,
          entries: 6,
          head: { seq: 6, hash: rows[5]?.hash },
          unkeyedEntries: 6,
        });
        expect(await store.readJournal({ afterSeq: 3, limit: 1 })).toEqual([rows[3]]);
      });

      describe('tampering', () => {
        async function journalOf(rowsWanted = 6) {
          const h = await open();
          const w = world();
          const paused = await startPaused(w, h.store);
          await w.runner(h.store, [done]).resume('run-1', approval(paused), { session: marie() });
          await startPaused(w, h.store, 'run-2');
          const rows = await h.tamper.rows();
          expect(rows.length).toBeGreaterThanOrEqual(rowsWanted);
          const last = rows.at(-1) as RawJournalRow;
          return { ...h, rows, head: { seq: last.seq, hash: last.hash } };
        }

        it('an edited entry is named', async () => {
          const { tamper, rows, head } = await journalOf();
          const edited = rows.map((row) =>
            row.seq === 4 ? { ...row, recordJson: row.recordJson.replace('"approved":true', '"approved":false') } : row,
          );
          expect(edited[3]?.recordJson).not.toBe(rows[3]?.recordJson);
          const store = await tamper.replaceJournal(edited, head);
          // Entry 3 is not vouched for: only entry 4's link (which no longer checks out) confirmed it.
          expect(await store.verifyJournal()).toMatchObject({ ok: false, seq: 4, problem: 'edited', entries: 2 });
          expect(await verification(store)).toMatch(/entry 4 does not match its hash/);
        });

        it('a deleted entry is named', async () => {
          const { tamper, rows, head } = await journalOf();
          const store = await tamper.replaceJournal(
            rows.filter((row) => row.seq !== 4),
            head,
          );
          expect(await store.verifyJournal()).toMatchObject({ ok: false, seq: 4, problem: 'deleted' });
          // Renumbered to hide the gap: still found. Unkeyed, it cannot be told from entry 3 changed and
          // re-hashed, so entry 3 is not vouched for.
          const renumbered = rows.filter((row) => row.seq !== 4).map((row, index) => ({ ...row, seq: index + 1 }));
          const again = await tamper.replaceJournal(renumbered, { seq: renumbered.length, hash: head.hash });
          expect(await again.verifyJournal()).toMatchObject({ ok: false, seq: 3, problem: 'edited', entries: 2 });
          expect(await verification(again)).toMatch(/entry 4 does not link to entry 3/);
        });

        it('deleted entries at the end are found through the head', async () => {
          const { tamper, rows, head } = await journalOf();
          const store = await tamper.replaceJournal(rows.slice(0, -2), head);
          expect(await store.verifyJournal()).toMatchObject({ ok: false, seq: rows.length - 1, problem: 'deleted' });
        });

        it('reordered entries are named', async () => {
          const { tamper, rows, head } = await journalOf();
          const swapped = rows.map((row) => {
            if (row.seq === 2) return { ...(rows[2] as RawJournalRow), seq: 2 };
            if (row.seq === 3) return { ...(rows[1] as RawJournalRow), seq: 3 };
            return row;
          });
          const store = await tamper.replaceJournal(swapped, head);
          expect(await store.verifyJournal()).toMatchObject({ ok: false, seq: 2, problem: 'reordered' });
        });

        it('an inserted entry is named', async () => {
          const { tamper, rows, head } = await journalOf();
          const previous = rows[2] as RawJournalRow;
          const record = { ...JSON.parse(previous.recordJson), callId: 'forged' };
          const forged = {
            seq: 4,
            prevHash: previous.hash,
            hash: chainHash(previous.hash, record),
            recordJson: JSON.stringify(record),
          };
          const shifted = [...rows.slice(0, 3), forged, ...rows.slice(3).map((row) => ({ ...row, seq: row.seq + 1 }))];
          const store = await tamper.replaceJournal(shifted, { seq: head.seq + 1, hash: head.hash });
          expect(await store.verifyJournal()).toMatchObject({ ok: false, seq: 4, problem: 'inserted' });
        });

        it('a rewritten and re-hashed history passes the chain but not a saved anchor', async () => {
          const { store: original, tamper, rows } = await journalOf();
          const anchor = await original.journalHead();
          const rewritten: RawJournalRow[] = [];
          let prevHash = '0'.repeat(64);
          for (const row of rows) {
            const record = JSON.parse(row.recordJson) as Record<string, unknown>;
            if (row.seq === 2) record.at = '2000-01-01T00:00:00.000Z';
            const hash = chainHash(prevHash, record);
            rewritten.push({ seq: row.seq, prevHash, hash, recordJson: JSON.stringify(record) });
            prevHash = hash;
          }
          const store = await tamper.replaceJournal(rewritten, { seq: rows.length, hash: prevHash });
          expect((await store.verifyJournal()).ok).toBe(true);
          expect(await store.verifyJournal({ anchor })).toMatchObject({
            ok: false,
            seq: anchor.seq,
            problem: 'edited',
          });
        });
      });

      it('keeps secrets out: credential-shaped text is scrubbed and declared secret fields redacted', async () => {
        const { store } = await open({ journal: { redact: redactInputFields({ connect_bank: ['pin'] }) } });
        const login = defineTool({
          name: 'connect_bank',
          description: 'Connect to the bank.',
          inputSchema: {
            type: 'object',
            properties: { user: { type: 'string' }, pin: { type: 'string' }, password: { type: 'string' } },
          },
          right: everySession,
          run: () => {
            throw new Error(
              'connection to postgres://bank:hunter2@db.internal/bank refused for key sk-ant-abcdefghijklmnopqrstuv',
            );
          },
        });
        const runner = createDurableRunner({
          store,
          catalogue: createCatalogue([login]),
          model: createScriptedModel([
            toolCallsTurn([
              { id: 'c1', name: 'connect_bank', input: { user: 'marie', pin: '0000', password: 'hunter2' } },
            ]),
            done,
          ]),
        });
        await runner.start({ session: marie(), messages: user, runId: 'run-s' });
        const text = JSON.stringify(await store.readJournal());
        expect(text).not.toContain('hunter2');
        expect(text).not.toContain('abcdefghijklmnopqrstuv');
        expect(text).not.toContain('"0000"');
        const [start, call] = await store.readJournal({ runId: 'run-s' });
        expect(start?.record).toMatchObject({ kind: 'start', callId: 'c1' });
        expect(call?.record).toMatchObject({
          kind: 'call',
          verdict: 'failed',
          input: { user: 'marie', pin: '[redacted]' },
        });
        expect((await store.verifyJournal()).ok).toBe(true);
      });

      it('journals each loop-level retry of the model, in order, and the chain still verifies', async () => {
        const { store } = await open();
        const overloaded = () => {
          throw new ProviderError({ provider: 'scripted', code: 'overloaded', message: 'overloaded', retryable: true });
        };
        const w = world();
        const runner = w.runner(
          store,
          [
            toolCallsTurn([{ id: 'lookup', name: 'lookup_case', input: { number: 'A-1' } }]),
            overloaded,
            overloaded,
            done,
          ],
          {
            retry: { attempts: 3, baseDelayMs: 1, jitter: 'none' },
            workerId: 'worker-r',
          },
        );
        const result = await runner.start({ session: marie(), messages: user, runId: 'run-r' });
        expect(result.status).toBe('completed');
        expect(await kinds(store, 'run-r')).toEqual([
          'call lookup executed',
          'start lookup',
          'retry turn 2 attempt 1',
          'retry turn 2 attempt 2',
        ]);
        const retries = (await store.readJournal({ runId: 'run-r' }))
          .map((row) => row.record)
          .filter((r) => r.kind === 'retry');
        expect(retries[0]).toMatchObject({
          runId: 'run-r',
          workerId: 'worker-r',
          delayMs: 1,
          error: { name: 'ProviderError', code: 'overloaded' },
        });
        expect((await store.verifyJournal()).ok).toBe(true);
      });

      it('journals a note for a part of a turn the adapter kept without understanding it, and the chain verifies', async () => {
        const { store } = await open();
        const kept: ModelTurn = {
          content: [
            { type: 'provider', provider: 'scripted', kind: 'hologram', data: { type: 'hologram', id: 'h1' } },
            { type: 'text', text: 'Done.' },
          ],
          stopReason: { unified: 'end_turn', raw: 'end_turn' },
          usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        };
        const runner = world().runner(store, [kept], { workerId: 'worker-n' });
        const result = await runner.start({ session: marie(), messages: user, runId: 'run-n' });
        expect(result.status).toBe('completed');
        expect(await kinds(store, 'run-n')).toEqual(['note provider_part hologram']);
        const [row] = await store.readJournal({ runId: 'run-n' });
        expect(row?.record).toMatchObject({
          kind: 'note',
          note: 'provider_part',
          runId: 'run-n',
          turn: 1,
          provider: 'scripted',
          partKind: 'hologram',
          index: 0,
          dataDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
        });
        expect((await store.verifyJournal()).ok).toBe(true);
      });

      it('keeps small outputs and only the digest and size of large ones', async () => {
        const { store } = await open();
        const big = defineTool({
          name: 'big',
          description: 'Returns a lot.',
          inputSchema: { type: 'object' },
          right: everySession,
          run: () => 'x'.repeat(5000),
        });
        const runner = createDurableRunner({
          store,
          catalogue: createCatalogue([lookupTool(), big]),
          model: createScriptedModel([
            toolCallsTurn([
              { id: 'small', name: 'lookup_case', input: { number: 'A-1' } },
              { id: 'large', name: 'big', input: { number: 'A-2' } },
            ]),
            done,
          ]),
        });
        await runner.start({ session: marie(), messages: user, runId: 'run-o' });
        const [small, large] = (await store.readJournal({ runId: 'run-o' }))
          .map((row) => row.record)
          .filter((record) => record.kind === 'call');
        expect(small).toMatchObject({ callId: 'small', output: { content: [{ type: 'json' }] } });
        expect(large).toMatchObject({ callId: 'large', output: { bytes: 5002 }, outputDigest: expect.any(String) });
        expect(large?.kind === 'call' && large.output?.content).toBeUndefined();
      });
    });
  });
}

/** Every method of a store, bound, so a test can override one. */
function bind(store: DurableStore): DurableStore {
  return {
    journal: store.journal,
    createRun: (run) => store.createRun(run),
    createClaimedRun: (run) => store.createClaimedRun(run),
    getRun: (runId) => store.getRun(runId),
    claimRun: (request) => store.claimRun(request),
    markCallStarted: (request) => store.markCallStarted(request),
    recordUnknownOutcome: (request) => store.recordUnknownOutcome(request),
    recordRetry: (request) => store.recordRetry(request),
    finishRun: (request) => store.finishRun(request),
    interruptRun: (request) => store.interruptRun(request),
    renewClaim: (request) => store.renewClaim(request),
    listExpiredClaims: (options) => store.listExpiredClaims(options),
    readJournal: (options) => store.readJournal(options),
    journalHead: () => store.journalHead(),
    verifyJournal: (options) => store.verifyJournal(options),
    anchorJournal: (options) => store.anchorJournal(options),
    schemaVersion: () => store.schemaVersion(),
    close: () => store.close(),
  };
}

async function verification(store: DurableStore): Promise<string> {
  const result = await store.verifyJournal();
  return result.ok ? 'ok' : result.message;
}

function iso(minutes: number): string {
  return new Date(Date.UTC(2030, 0, 1, 0, minutes)).toISOString();
}

/** Polls a condition (no timing assertion: it only waits, and fails after a generous bound). */
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 1000; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached');
}
