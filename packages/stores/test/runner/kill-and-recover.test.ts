// A worker process is SIGKILLed in the middle of resuming a paused run, then another process recovers the
// run. Whatever the point of death, the approved irreversible call has taken effect at most once, and
// exactly once whenever it can be known, and every call of the turn still gets its one result.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCatalogue, defineTool, type Message, toolResultText } from '@toolcircuit/core';
import { createScriptedModel, type ScriptedStep, toolCallsTurn } from '@toolcircuit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDurableRunner, type DurableStore, type JournalRecord } from '../../src/index.js';
import { openSqliteStore } from '../../src/sqlite/index.js';
import { buildForChildren, childAtReady, effectsIn } from '../support/child-builds.js';
import { approveAll, done, lookupTool, marie, pausingTurn, toolReplies, user } from '../support/world.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'toolcircuit-kill-'));

beforeAll(buildForChildren, 180_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Phase = 'before-start' | 'during-tool' | 'after-outcome' | 'during-turn';

/** The same transfer tool as the child's (same name, schema, right, flag: the fingerprint must match). */
function effectTransfer(effects: string) {
  return defineTool({
    name: 'transfer',
    description: 'Transfer money. Irreversible.',
    inputSchema: {
      type: 'object',
      properties: { amount: { type: 'integer', minimum: 1 }, to: { type: 'string' } },
      required: ['amount', 'to'],
      additionalProperties: false,
    },
    right: 'payments:write',
    irreversible: true,
    run: (input) => {
      appendFileSync(effects, `${JSON.stringify({ pid: process.pid, input })}\n`);
      return `sent ${input.amount} to ${input.to}`;
    },
  });
}

/** The pay call's records, and those of no call (the lookup has its own start and call records). */
function lines(records: readonly JournalRecord[]): string[] {
  return records
    .filter((record) => !('callId' in record) || record.callId === 'pay')
    .map((record) => (record.kind === 'call' ? `call ${record.verdict}` : record.kind));
}

/** A turn of three transfers (and the lookup), all irreversible but the lookup: one pause, three approvals. */
const payees = ['bob', 'carol', 'dan'] as const;
function threeTransfersTurn(): ScriptedStep {
  return toolCallsTurn([
    { id: 'lookup', name: 'lookup_case', input: { number: 'A-1234' } },
    ...payees.map((to, index) => ({ id: `pay-${to}`, name: 'transfer', input: { amount: 10 + index, to } })),
  ]);
}

async function killDuring(phase: Phase) {
  const dir = mkdtempSync(join(root, `${phase}-`));
  const file = join(dir, 'toolcircuit.sqlite');
  const effects = join(dir, 'effects.log');
  const ready = join(dir, 'ready');
  const catalogue = createCatalogue([lookupTool(), effectTransfer(effects)]);

  const store: DurableStore = await openSqliteStore({ file });
  const firstTurn = phase === 'during-turn' ? threeTransfersTurn() : pausingTurn();
  const started = await createDurableRunner({ store, catalogue, model: createScriptedModel([firstTurn]) }).start({
    session: marie(),
    messages: user,
    runId: 'run-k',
  });
  if (started.paused === undefined) throw new Error('expected a paused run');

  const child = await childAtReady(join(here, 'fixtures', 'resume-child.mjs'), {
    file,
    runId: 'run-k',
    decisions: approveAll(started.paused),
    phase,
    effects,
    ready,
    calls: started.paused.pending.length,
  });
  expect(child.said).toBe(phase);
  expect(await child.kill()).toBe('SIGKILL');

  const afterKill = await store.getRun('run-k');
  const effectsAtKill = effectsIn(effects);
  const model = createScriptedModel([done]);
  const recovered = await createDurableRunner({ store, catalogue, model, workerId: 'recoverer' }).recover('run-k', {
    session: marie(),
  });
  const journal = (await store.readJournal({ runId: 'run-k' })).map((row) => row.record);
  const verification = await store.verifyJournal();
  const final = await store.getRun('run-k');
  await store.close();
  return {
    afterKill,
    effectsAtKill,
    effects: effectsIn(effects),
    recovered,
    journal,
    verification,
    final,
    childPid: child.pid,
  };
}

function payResult(messages: readonly Message[]) {
  const [reply] = toolReplies(messages);
  expect(reply?.content.map((part) => part.callId)).toEqual(['lookup', 'pay']);
  return reply?.content[1];
}

describe('a worker killed mid-resume, then recovered by another process', () => {
  it('killed after the decision was journaled, before the call started: recovery runs it, exactly once', async () => {
    const outcome = await killDuring('before-start');
    expect(outcome.afterKill).toMatchObject({
      status: 'resuming',
      calls: [
        { callId: 'lookup', state: 'done' },
        { callId: 'pay', state: 'intended' },
      ],
    });
    expect(outcome.effectsAtKill).toEqual([]);
    expect(outcome.effects).toEqual([{ pid: process.pid, input: { amount: 10, to: 'bob' } }]);
    expect(outcome.recovered.status).toBe('completed');
    expect(outcome.recovered.unknownOutcomes).toEqual([]);
    const pay = payResult(outcome.recovered.messages);
    expect(pay?.isError).toBe(false);
    expect(toolResultText(pay?.content ?? '')).toBe('sent 10 to bob');
    expect(lines(outcome.journal)).toEqual([
      'call awaiting_confirmation',
      'decision',
      'recovery',
      'start',
      'call executed',
    ]);
    expect(outcome.final?.calls).toMatchObject([
      { callId: 'lookup', state: 'done' },
      { callId: 'pay', state: 'done' },
    ]);
    expect(outcome.verification.ok).toBe(true);
  });

  it('killed inside the tool after its side effect: recovery does not run it again and reports the outcome unknown', async () => {
    const outcome = await killDuring('during-tool');
    expect(outcome.afterKill).toMatchObject({
      status: 'resuming',
      calls: [
        { callId: 'lookup', state: 'done' },
        { callId: 'pay', state: 'started' },
      ],
    });
    expect(outcome.effects).toEqual([{ pid: outcome.childPid, input: { amount: 10, to: 'bob' } }]);
    expect(outcome.recovered.status).toBe('completed');
    expect(outcome.recovered.unknownOutcomes).toEqual(['pay']);
    const pay = payResult(outcome.recovered.messages);
    expect(pay?.isError).toBe(true);
    expect(toolResultText(pay?.content ?? '')).toMatch(/unknown.*not run again/s);
    expect(lines(outcome.journal)).toEqual([
      'call awaiting_confirmation',
      'decision',
      'start',
      'recovery',
      'outcome_unknown',
    ]);
    expect(outcome.final?.calls).toMatchObject([
      { callId: 'lookup', state: 'done' },
      { callId: 'pay', state: 'unknown' },
    ]);
    expect(outcome.verification.ok).toBe(true);
  });

  it('killed after the result was journaled: recovery reuses the recorded result and never runs the call again', async () => {
    const outcome = await killDuring('after-outcome');
    expect(outcome.afterKill).toMatchObject({
      status: 'resuming',
      calls: [
        { callId: 'lookup', state: 'done' },
        { callId: 'pay', state: 'done' },
      ],
    });
    expect(outcome.effects).toEqual([{ pid: outcome.childPid, input: { amount: 10, to: 'bob' } }]);
    expect(outcome.recovered.status).toBe('completed');
    expect(outcome.recovered.unknownOutcomes).toEqual([]);
    const pay = payResult(outcome.recovered.messages);
    expect(pay?.isError).toBe(false);
    expect(toolResultText(pay?.content ?? '')).toBe('sent 10 to bob');
    expect(lines(outcome.journal)).toEqual([
      'call awaiting_confirmation',
      'decision',
      'start',
      'call executed',
      'recovery',
    ]);
    expect(outcome.verification.ok).toBe(true);
  });

  it('killed after the shared start commit of a turn, every transfer having run: all are unknown, none re-run', async () => {
    const outcome = await killDuring('during-turn');
    const pays = payees.map((to) => `pay-${to}`);
    // One commit marked every approved call of the turn started before any of them ran; each then took
    // its side effect in the child, and none had an outcome recorded when it died.
    expect(outcome.afterKill?.status).toBe('resuming');
    expect(outcome.afterKill?.calls.map((call) => [call.callId, call.state])).toEqual([
      ['lookup', 'done'],
      ...pays.map((id) => [id, 'started']),
    ]);
    expect(outcome.effectsAtKill).toHaveLength(3);
    expect(outcome.effectsAtKill.every((effect) => effect.pid === outcome.childPid)).toBe(true);
    const starts = outcome.journal.flatMap((record) =>
      record.kind === 'start' && record.callId !== 'lookup' ? [record.callId] : [],
    );
    expect(starts).toEqual(pays);

    // Recovery reports every call of the turn as unknown and runs none of them again.
    expect(outcome.effects).toHaveLength(3);
    expect(outcome.recovered.status).toBe('completed');
    expect([...outcome.recovered.unknownOutcomes].sort()).toEqual([...pays].sort());
    const [reply] = toolReplies(outcome.recovered.messages);
    expect(reply?.content.map((part) => part.callId)).toEqual(['lookup', ...pays]);
    for (const part of reply?.content.slice(1) ?? []) {
      expect(part.isError).toBe(true);
      expect(toolResultText(part.content)).toMatch(/unknown.*not run again/s);
    }
    const kinds = outcome.journal
      .filter((record) => record.kind !== 'call' && !('callId' in record && record.callId === 'lookup'))
      .map((record) => record.kind);
    expect(kinds).toEqual([
      ...pays.map(() => 'decision'),
      ...pays.map(() => 'start'),
      'recovery',
      ...pays.map(() => 'outcome_unknown'),
    ]);
    expect(outcome.final?.calls.map((call) => call.state)).toEqual(['done', 'unknown', 'unknown', 'unknown']);
    expect(outcome.verification.ok).toBe(true);
  });
});
