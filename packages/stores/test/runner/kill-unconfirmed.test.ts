// A worker process is SIGKILLed while it runs calls that need no confirmation (a tool that is not
// irreversible), inside `start`, then another process recovers the run from the SQLite file. Every call
// started under a start record of a stored turn: a call that started is never run again (its recorded
// result is reused, or it is answered "outcome unknown"), and a call that never started runs once.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCatalogue, createSession, defineTool, everySession, toolResultText } from '@toolcircuit/core';
import { createScriptedModel, type ScriptedStep, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDurableRunner, type JournalRecord } from '../../src/index.js';
import { openSqliteStore } from '../../src/sqlite/index.js';
import { buildForChildren, childAtReady, effectsIn } from '../support/child-builds.js';
import { toolReplies } from '../support/world.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'toolcircuit-kill-unconfirmed-'));

beforeAll(buildForChildren, 180_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Phase = 'first-model' | 'during-tool' | 'next-model';
const notes = ['note-bob', 'note-carol', 'note-dan'];

/** The child's tool (same name, schema and right: the catalogue's fingerprint must match). */
function noteTool(effects: string) {
  return defineTool({
    name: 'send_note',
    description: 'Send a note to a colleague.',
    inputSchema: {
      type: 'object',
      properties: { to: { type: 'string' }, text: { type: 'string' } },
      required: ['to', 'text'],
      additionalProperties: false,
    },
    right: everySession,
    run: (input) => {
      appendFileSync(effects, `${JSON.stringify({ pid: process.pid, input })}\n`);
      return `note sent to ${input.to}`;
    },
  });
}

const notesTurn: ScriptedStep = toolCallsTurn(
  ['bob', 'carol', 'dan'].map((to) => ({
    id: `note-${to}`,
    name: 'send_note',
    input: { to, text: 'the case is open' },
  })),
);
const answer = textTurn('The team knows.');

function lines(records: readonly JournalRecord[]): string[] {
  return records.map((record) => ('callId' in record ? `${record.kind} ${record.callId}` : record.kind));
}

async function killDuring(phase: Phase, recoveryTurns: readonly ScriptedStep[]) {
  const dir = mkdtempSync(join(root, `${phase}-`));
  const file = join(dir, 'toolcircuit.sqlite');
  const effects = join(dir, 'effects.log');
  const ready = join(dir, 'ready');
  const child = await childAtReady(join(here, 'fixtures', 'start-child.mjs'), {
    file,
    runId: 'run-u',
    phase,
    effects,
    ready,
  });
  expect(child.said).toBe(phase);
  expect(await child.kill()).toBe('SIGKILL');

  // A new process's view: the store opened afresh on the file the dead worker left.
  const store = await openSqliteStore({ file });
  const afterKill = await store.getRun('run-u');
  const effectsAtKill = effectsIn(effects);
  const runner = createDurableRunner({
    store,
    catalogue: createCatalogue([noteTool(effects)]),
    model: createScriptedModel([...recoveryTurns]),
    workerId: 'recoverer',
  });
  const session = createSession({ id: 'session-7', humanId: 'marie', rights: [] });
  const recovered = await runner.recover('run-u', { session });
  const journal = (await store.readJournal({ runId: 'run-u' })).map((row) => row.record);
  const verification = await store.verifyJournal();
  const final = await store.getRun('run-u');
  await store.close();
  return { afterKill, effectsAtKill, effects: effectsIn(effects), recovered, journal, verification, final, child };
}

describe('a worker killed while it runs calls that need no confirmation, then recovered by another process', () => {
  it('killed inside a tool: the started call is answered "outcome unknown" and not re-run; the unstarted one runs once', async () => {
    const outcome = await killDuring('during-tool', [answer]);
    // The run was created and claimed before the first call, and the turn stored with its first start.
    expect(outcome.afterKill).toMatchObject({ status: 'resuming', started: { turn: 1 } });
    expect(outcome.afterKill?.started?.messages.at(-1)).toMatchObject({ role: 'assistant' });
    expect(outcome.afterKill?.calls.map((call) => [call.callId, call.state])).toEqual([
      ['note-bob', 'done'],
      ['note-carol', 'started'],
    ]);
    const childPid = outcome.child.pid;
    expect(outcome.effectsAtKill.map((effect) => effect.pid)).toEqual([childPid, childPid]);

    // Bob's note is not sent again, Carol's is not repeated (unknown), Dan's is sent once, by the recoverer.
    expect(outcome.effects).toEqual([
      { pid: childPid, input: { to: 'bob', text: 'the case is open' } },
      { pid: childPid, input: { to: 'carol', text: 'the case is open' } },
      { pid: process.pid, input: { to: 'dan', text: 'the case is open' } },
    ]);
    expect(outcome.recovered.status).toBe('completed');
    expect(outcome.recovered.unknownOutcomes).toEqual(['note-carol']);
    const [reply] = toolReplies(outcome.recovered.messages);
    expect(reply?.content.map((part) => [part.callId, part.isError])).toEqual([
      ['note-bob', false],
      ['note-carol', true],
      ['note-dan', false],
    ]);
    expect(toolResultText(reply?.content[0]?.content ?? '')).toBe('note sent to bob');
    expect(toolResultText(reply?.content[1]?.content ?? '')).toMatch(/unknown.*not run again/s);
    expect(lines(outcome.journal)).toEqual([
      'start note-bob',
      'call note-bob',
      'start note-carol',
      'recovery',
      'outcome_unknown note-carol',
      'start note-dan',
      'call note-dan',
    ]);
    expect(outcome.final).toMatchObject({ status: 'completed', result: { text: 'The team knows.' } });
    expect(outcome.final?.calls.map((call) => [call.callId, call.state])).toEqual([
      ['note-bob', 'done'],
      ['note-carol', 'unknown'],
      ['note-dan', 'done'],
    ]);
    expect(outcome.verification.ok).toBe(true);
  });

  it('killed in the next model request: every recorded result is reused, no call runs again', async () => {
    const outcome = await killDuring('next-model', [answer]);
    expect(outcome.afterKill).toMatchObject({ status: 'resuming', started: { turn: 1 } });
    expect(outcome.afterKill?.calls.map((call) => call.state)).toEqual(['done', 'done', 'done']);
    expect(outcome.effects).toHaveLength(3);
    expect(outcome.effects.every((effect) => effect.pid === outcome.child.pid)).toBe(true);
    expect(outcome.recovered.status).toBe('completed');
    expect(outcome.recovered.unknownOutcomes).toEqual([]);
    expect(outcome.recovered.text).toBe('The team knows.');
    const [reply] = toolReplies(outcome.recovered.messages);
    expect(reply?.content.map((part) => [part.callId, part.isError])).toEqual(notes.map((id) => [id, false]));
    expect(outcome.recovered.turns).toHaveLength(2);
    expect(lines(outcome.journal)).toEqual([...notes.flatMap((id) => [`start ${id}`, `call ${id}`]), 'recovery']);
    expect(outcome.verification.ok).toBe(true);
  });

  it('killed before any turn started: recovery starts over from the input, each call runs once', async () => {
    const outcome = await killDuring('first-model', [notesTurn, answer]);
    expect(outcome.afterKill).toMatchObject({ status: 'resuming', started: { turn: 0 }, calls: [] });
    expect(outcome.effectsAtKill).toEqual([]);
    expect(outcome.effects).toHaveLength(3);
    expect(outcome.effects.every((effect) => effect.pid === process.pid)).toBe(true);
    expect(outcome.recovered.status).toBe('completed');
    expect(outcome.final?.calls.map((call) => call.state)).toEqual(['done', 'done', 'done']);
    expect(outcome.verification.ok).toBe(true);
  });
});
