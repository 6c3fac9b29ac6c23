// Group commit: writes that reach the store together share one write transaction, each resolving only once
// it committed; a refused write fails alone, a failed transaction fails every write of its batch.
import { randomUUID } from 'node:crypto';
import { toolCallsTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { ClaimLostError } from '../../src/errors/claim-lost-error.js';
import { MemoryBackend } from '../../src/memory/memory-backend.js';
import { BackedStore } from '../../src/store/backed-store.js';
import type { StoreBackend } from '../../src/store/store-backend.js';
import { entry } from '../support/journal-entry.js';
import { approveAll, done, marie, user, world } from '../support/world.js';

/** A memory backend that counts its write transactions and can be told to fail the next one. */
function countingBackend() {
  const inner = new MemoryBackend();
  const counts = { writes: 0, failNext: false };
  const backend: StoreBackend = {
    write: (work) => {
      counts.writes += 1;
      if (counts.failNext) {
        counts.failNext = false;
        return inner.write(async (tx) => {
          await work(tx);
          throw new Error('disk full');
        });
      }
      return inner.write(work);
    },
    read: (work) => inner.read(work),
    expiredClaims: (before, limit) => inner.expiredClaims(before, limit),
    appendEvents: (runId, events, keep) => inner.appendEvents(runId, events, keep),
    readEvents: (runId, afterSeq, limit) => inner.readEvents(runId, afterSeq, limit),
    schemaVersion: () => inner.schemaVersion(),
    close: () => inner.close(),
  };
  return { backend, counts };
}

const payees = ['bob', 'carol', 'dan'];

/** A run paused on three transfers, claimed with all three approved. */
async function claimedRun() {
  const { backend, counts } = countingBackend();
  const store = new BackedStore(backend);
  const w = world();
  const turn = toolCallsTurn(
    payees.map((to, index) => ({ id: `pay-${to}`, name: 'transfer', input: { amount: 1 + index, to } })),
  );
  const started = await w.runner(store, [turn]).start({ session: marie(), messages: user, runId: 'run-1' });
  if (started.paused === undefined) throw new Error('expected a paused run');
  const record = await store.getRun('run-1');
  const token = randomUUID();
  await store.claimRun({
    runId: 'run-1',
    expectedRevision: record?.revision ?? 0,
    claim: { token, workerId: 'w', claimedAt: new Date().toISOString(), leaseExpiresAt: new Date().toISOString() },
    turn: 1,
    decisions: approveAll(started.paused).map((decision, index) => ({
      callId: decision.callId,
      index,
      toolName: 'transfer',
      inputDigest: decision.inputDigest ?? '',
      approved: true,
    })),
  });
  return { store, counts, token };
}

describe('group commit', () => {
  it('the start markers of calls that start together share one transaction; a refused one fails alone', async () => {
    const { store, counts, token } = await claimedRun();
    const before = counts.writes;
    const at = new Date().toISOString();
    const marks = payees.map((to) =>
      store.markCallStarted({ runId: 'run-1', token, turn: 1, callId: `pay-${to}`, at }),
    );
    const stale = store.markCallStarted({ runId: 'run-1', token: 'not-the-claim', turn: 1, callId: 'pay-bob', at });
    await Promise.all(marks);
    await expect(stale).rejects.toBeInstanceOf(ClaimLostError);
    expect(counts.writes - before).toBe(1);
    expect((await store.getRun('run-1'))?.calls.map((call) => call.state)).toEqual(['started', 'started', 'started']);
    const starts = (await store.readJournal({ runId: 'run-1' })).filter((row) => row.record.kind === 'start');
    expect(starts).toHaveLength(3);
    expect((await store.verifyJournal()).ok).toBe(true);
  });

  it('a transaction that fails fails every write of its batch, and none of them is kept', async () => {
    const { store, counts, token } = await claimedRun();
    const at = new Date().toISOString();
    const headBefore = await store.journalHead();
    counts.failNext = true;
    const marks = payees.map((to) =>
      store.markCallStarted({ runId: 'run-1', token, turn: 1, callId: `pay-${to}`, at }),
    );
    for (const mark of marks) await expect(mark).rejects.toThrow('disk full');
    expect((await store.getRun('run-1'))?.calls.map((call) => call.state)).toEqual([
      'intended',
      'intended',
      'intended',
    ]);
    expect(await store.journalHead()).toEqual(headBefore);
  });

  it('journal entries appended together share one transaction and chain in the order they came', async () => {
    const { backend, counts } = countingBackend();
    const store = new BackedStore(backend);
    await Promise.all(['a', 'b', 'c'].map((id) => store.journal.append(entry('run-9', id))));
    expect(counts.writes).toBe(1);
    const rows = await store.readJournal();
    expect(rows.map((row) => (row.record.kind === 'call' ? row.record.callId : row.record.kind))).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect((await store.verifyJournal()).ok).toBe(true);
  });

  it('the entries of calls left waiting for the human are committed with the pause, in one transaction', async () => {
    const { backend, counts } = countingBackend();
    const store = new BackedStore(backend);
    const w = world();
    const turn = toolCallsTurn([
      { id: 'lookup', name: 'lookup_case', input: { number: 'A-1' } },
      ...payees.map((to, index) => ({ id: `pay-${to}`, name: 'transfer', input: { amount: 1 + index, to } })),
    ]);
    const started = await w.runner(store, [turn]).start({ session: marie(), messages: user, runId: 'run-1' });
    expect(started.status).toBe('paused');
    // The run created and claimed; the turn stored with the lookup's start marker; the lookup's entry (it
    // ran); then the run stored as paused together with the three waiting entries.
    expect(counts.writes).toBe(4);
    const rows = await store.readJournal({ runId: 'run-1' });
    expect(
      rows.map((row) =>
        row.record.kind === 'call' ? `${row.record.callId} ${row.record.verdict}` : `${row.record.kind}`,
      ),
    ).toEqual(['start', 'lookup executed', ...payees.map((to) => `pay-${to} awaiting_confirmation`)]);
    expect((await store.getRun('run-1'))?.status).toBe('paused');
    expect((await store.verifyJournal()).ok).toBe(true);
  });

  it('calls that need no confirmation: the run, then per turn the turn with its starts and the outcomes, then the end', async () => {
    const { backend, counts } = countingBackend();
    const store = new BackedStore(backend);
    const w = world();
    const lookups = (turn: number) =>
      toolCallsTurn(
        ['a', 'b', 'c'].map((id) => ({ id: `${id}${turn}`, name: 'lookup_case', input: { number: `A-${turn}` } })),
      );
    const result = await w
      .runner(store, [lookups(1), lookups(2), lookups(3), done])
      .start({ session: marie(), messages: user, runId: 'run-1' });
    expect(result.status).toBe('completed');
    // 1 (created, claimed) + 3 turns × 2 (the turn stored with its three start markers; three outcomes) + 1.
    expect(counts.writes).toBe(8);
    const record = await store.getRun('run-1');
    expect(record?.calls.map((call) => `${call.turn} ${call.callId} ${call.state}`)).toEqual(
      [1, 2, 3].flatMap((turn) => ['a', 'b', 'c'].map((id) => `${turn} ${id}${turn} done`)),
    );
    expect((await store.verifyJournal()).ok).toBe(true);
  });
});
