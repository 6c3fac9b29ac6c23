// The durable runner's stored states (a paused run, an interrupted one, a started turn) under a key: each
// is sealed, and one rewritten in the database together with its digest column (what anyone with write
// access can do: the digest is a plain SHA-256) is refused before anything runs. A paused run restored
// after it was resumed (a replay) is refused by the decisions recorded with its first claim.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  canonicalJson,
  confirmationFor,
  createSession,
  InMemoryConfirmations,
  jsonDigest,
  type Model,
  ProviderError,
  type SealKey,
  StateSealError,
} from '@toolcircuit/core';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createDurableRunner, RunClaimConflictError } from '../../src/index.js';
import { openSqliteStore } from '../../src/sqlite/index.js';
import { rentCatalogue, rentPayment } from '../support/rent-world.js';

const root = mkdtempSync(join(tmpdir(), 'toolcircuit-sealed-runs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const key: SealKey = { id: 'app-2026', secret: 's'.repeat(40) };
const payment = rentPayment;
let counter = 0;

function world() {
  const paid: unknown[] = [];
  let hang = false;
  const catalogue = rentCatalogue(
    (tool, input) => {
      if (tool === 'pay') paid.push(input);
    },
    () => hang,
  );
  // Confirmed before the run, without the mail: stale once the mail is read.
  const confirmations = new InMemoryConfirmations([confirmationFor('pay', payment, { humanId: 'ines', anyRun: true })]);
  const session = createSession({ id: 'session-9', humanId: 'ines', confirmations });
  return {
    paid,
    catalogue,
    session,
    dieInNotes: () => {
      hang = true;
    },
  };
}

const readMail = toolCallsTurn([{ id: 'm1', name: 'read_mail', input: {} }]);
const payTurn = (id: string) => toolCallsTurn([{ id, name: 'pay', input: payment }]);

async function storeFile() {
  counter += 1;
  const file = join(root, `sealed-${counter}.sqlite`);
  return { file, store: await openSqliteStore({ file }) };
}

/** Rewrites a run's state column and its digest, as anyone with write access to the database can. */
function rewriteState(file: string, runId: string, rewrite: (state: Record<string, unknown>) => unknown): void {
  const db = new Database(file);
  try {
    const row = db.prepare('SELECT paused_json FROM runs WHERE run_id = ?').get(runId) as { paused_json: string };
    const forged = rewrite(JSON.parse(row.paused_json) as Record<string, unknown>);
    db.prepare('UPDATE runs SET paused_json = ?, paused_digest = ? WHERE run_id = ?').run(
      JSON.stringify(forged),
      jsonDigest(forged),
      runId,
    );
  } finally {
    db.close();
  }
}

/**
 * Empties the untrusted sources of a started turn stored append-only (its head and item rows), with its
 * chain and digest recomputed, as anyone with write access to the database can.
 */
function emptyAppendedSources(file: string, runId: string): void {
  const db = new Database(file);
  try {
    const row = db.prepare('SELECT paused_json FROM runs WHERE run_id = ?').get(runId) as { paused_json: string };
    const prefix = '{"startedHead":';
    expect(row.paused_json.startsWith(prefix)).toBe(true);
    const head = JSON.parse(row.paused_json.slice(prefix.length, -1)) as { lists: Record<string, unknown> };
    const forged = `${prefix}${canonicalJson({ ...head, lists: { ...head.lists, sources: [0, ''] } })}}`;
    db.prepare("DELETE FROM run_items WHERE run_id = ? AND part = 'sources'").run(runId);
    db.prepare('UPDATE runs SET paused_json = ?, paused_digest = ? WHERE run_id = ?').run(
      forged,
      createHash('sha256').update(forged).digest('hex'),
      runId,
    );
  } finally {
    db.close();
  }
}

/** The state with its untrusted sources emptied (and its turn's sources, for a wrapped state). */
function emptySources(state: Record<string, unknown>, wrapper?: 'interrupted'): unknown {
  if (wrapper === undefined) return { ...state, provenance: { sources: [] } };
  const inner = state[wrapper] as Record<string, unknown>;
  return { [wrapper]: { ...inner, provenance: { sources: [] } } };
}

function runner(w: ReturnType<typeof world>, store: Awaited<ReturnType<typeof storeFile>>['store'], model: Model) {
  return createDurableRunner({ store, catalogue: w.catalogue, model, seal: { key }, workerId: `w-${counter}` });
}

describe('the durable runner seals what it stores', () => {
  it('a paused run: sealed, and refused once its sources are emptied and its digest recomputed', async () => {
    const w = world();
    const { file, store } = await storeFile();
    const started = await runner(w, store, createScriptedModel([readMail, payTurn('p1')])).start({
      session: w.session,
      messages: [{ role: 'user', content: 'Pay the rent.' }],
      runId: 'run-p',
    });
    expect(started.status).toBe('paused');
    expect((await store.getRun('run-p'))?.paused?.seal?.keyId).toBe('app-2026');
    rewriteState(file, 'run-p', (state) => emptySources(state));
    const pending = started.paused?.pending[0];
    const approval = [{ callId: 'p1', approved: true, inputDigest: pending?.inputDigest ?? '' }];
    const resuming = runner(w, store, createScriptedModel([textTurn('ok')])).resume('run-p', approval, {
      session: w.session,
    });
    await expect(resuming).rejects.toBeInstanceOf(StateSealError);
    expect((await store.getRun('run-p'))?.status).toBe('paused');
    expect(w.paid).toEqual([]);
    await store.close();
  });

  it('an interrupted run: sealed, and recovery refuses it once its sources are emptied', async () => {
    const w = world();
    const { file, store } = await storeFile();
    const failing = createScriptedModel([
      readMail,
      () => {
        throw new ProviderError({ provider: 'test', code: 'overloaded', message: '529', retryable: true });
      },
    ]);
    await expect(
      runner(w, store, failing).start({
        session: w.session,
        messages: [{ role: 'user', content: 'Pay.' }],
        runId: 'run-i',
      }),
    ).rejects.toBeInstanceOf(ProviderError);
    const record = await store.getRun('run-i');
    expect(record?.status).toBe('interrupted');
    expect(record?.interrupted?.seal?.keyId).toBe('app-2026');
    expect(record?.interrupted?.provenance?.sources.map((source) => source.callId)).toEqual(['m1']);

    rewriteState(file, 'run-i', (state) => emptySources(state, 'interrupted'));
    const recovering = runner(w, store, createScriptedModel([payTurn('p1'), textTurn('ok')])).recover('run-i', {
      session: w.session,
    });
    await expect(recovering).rejects.toBeInstanceOf(StateSealError);
    expect(w.paid).toEqual([]);
    await store.close();
  });

  it('a started turn: sealed with its sources, and a forced recovery refuses it once they are emptied', async () => {
    const w = world();
    const { file, store } = await storeFile();
    w.dieInNotes();
    const dying = createScriptedModel([readMail, toolCallsTurn([{ id: 'n1', name: 'send_note', input: {} }])]);
    // The first worker "dies" inside the note of turn 2: its start never settles.
    void runner(w, store, dying).start({
      session: w.session,
      messages: [{ role: 'user', content: 'Pay.' }],
      runId: 'run-s',
    });
    for (let wait = 0; wait < 200 && (await store.getRun('run-s'))?.started?.turn !== 2; wait += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const record = await store.getRun('run-s');
    expect(record?.started?.turn).toBe(2);
    expect(record?.started?.seal?.keyId).toBe('app-2026');
    expect(record?.started?.provenance?.sources.map((source) => [source.callId, source.turn])).toEqual([['m1', 1]]);

    emptyAppendedSources(file, 'run-s');
    const recovering = runner(w, store, createScriptedModel([payTurn('p1'), textTurn('ok')])).recover('run-s', {
      session: w.session,
      force: true,
    });
    await expect(recovering).rejects.toBeInstanceOf(StateSealError);
    expect(w.paid).toEqual([]);
    await store.close();
  });

  it('a paused run restored in the database after it was resumed (a replay) is refused: the payment ran once', async () => {
    const w = world();
    const { file, store } = await storeFile();
    const started = await runner(w, store, createScriptedModel([readMail, payTurn('p1')])).start({
      session: w.session,
      messages: [{ role: 'user', content: 'Pay the rent.' }],
      runId: 'run-r',
    });
    const db = new Database(file);
    const saved = db.prepare('SELECT * FROM runs WHERE run_id = ?').get('run-r') as Record<string, unknown>;
    const approval = [{ callId: 'p1', approved: true, inputDigest: started.paused?.pending[0]?.inputDigest ?? '' }];
    const resumed = await runner(w, store, createScriptedModel([textTurn('ok')])).resume('run-r', approval, {
      session: w.session,
    });
    expect(resumed.status).toBe('completed');
    // The sealed paused state, its digest, status and revision put back as they were before the resume.
    const columns = Object.keys(saved).filter((column) => column !== 'run_id');
    db.prepare(
      `UPDATE runs SET ${columns.map((column) => `${column} = @${column}`).join(', ')} WHERE run_id = @run_id`,
    ).run(saved);
    db.close();
    expect((await store.getRun('run-r'))?.status).toBe('paused');
    const replay = runner(w, store, createScriptedModel([textTurn('again')])).resume('run-r', approval, {
      session: w.session,
    });
    await expect(replay).rejects.toBeInstanceOf(RunClaimConflictError);
    expect(w.paid).toEqual([payment]);
    await store.close();
  });
});
