// Per-step control through the durable runner on a real SQLite file: the step plan of a paused turn is
// stored with the run, and a resume in another runner (another process) checks the approved call against
// the tools its own step offered, plans the next steps again and honours the stop conditions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callBudget, type StepContext, type StepSettings } from '@toolcircuit/core';
import { createScriptedModel, toolCallsTurn } from '@toolcircuit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createDurableRunner } from '../../src/index.js';
import { openSqliteStore } from '../../src/sqlite/index.js';
import { approveAll, marie, pausingTurn, user, worldCatalogue } from '../support/world.js';

const root = mkdtempSync(join(tmpdir(), 'toolcircuit-per-step-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const plan = ({ turn }: StepContext): StepSettings =>
  turn === 1 ? { activeTools: ['lookup_case', 'transfer'] } : { activeTools: ['lookup_case'], toolChoice: 'required' };

describe('per-step control in a durable run', () => {
  it('the paused step plan survives the store; the resumed turn is checked against it, later steps re-planned', async () => {
    const file = join(root, 'runs.sqlite');
    const executions: unknown[] = [];
    const catalogue = worldCatalogue(executions);
    const options = { catalogue, prepareStep: plan, stopWhen: callBudget(3) };
    const first = await openSqliteStore({ file });
    const started = await createDurableRunner({
      ...options,
      store: first,
      model: createScriptedModel([pausingTurn()]),
    }).start({
      session: marie(),
      messages: user,
      runId: 'run-steps',
    });
    expect(started.status).toBe('paused');
    await first.close();

    // Another process: a new connection, a new runner, the plan read back from the database.
    const second = await openSqliteStore({ file });
    const record = await second.getRun('run-steps');
    expect(record?.paused?.step).toEqual({
      turn: 1,
      activeTools: ['lookup_case', 'transfer'],
      model: 'scripted:scripted-model',
    });
    const paused = record?.paused;
    if (paused === undefined) throw new Error('expected the paused state in the store');
    const model = createScriptedModel([
      toolCallsTurn([{ id: 'again', name: 'transfer', input: { amount: 5, to: 'eve' } }]),
    ]);
    const resumed = await createDurableRunner({ ...options, store: second, model }).resume(
      'run-steps',
      approveAll(paused),
      {
        session: marie(),
      },
    );
    // The approved transfer ran (its step offered it); turn 2 offered only the lookup, so the second
    // transfer was refused, and the third call reached the budget.
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);
    expect(resumed.status).toBe('stopped');
    expect(resumed.stoppedBy).toBe('callBudget(3)');
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['lookup_case']);
    expect(model.requests[0]?.toolChoice).toBe('required');
    expect((await second.getRun('run-steps'))?.status).toBe('completed');
    const calls = (await second.readJournal({ runId: 'run-steps' }))
      .map((row) => row.record)
      .filter((entry) => entry.kind === 'call');
    expect(
      calls.map((entry) =>
        entry.kind === 'call' ? [entry.toolName, entry.verdict, entry.reason, entry.step?.turn] : [],
      ),
    ).toEqual([
      ['lookup_case', 'executed', undefined, 1],
      ['transfer', 'awaiting_confirmation', undefined, 1],
      ['transfer', 'executed', undefined, 1],
      ['transfer', 'refused', 'inactive_tool', 2],
    ]);
    expect(await second.verifyJournal()).toMatchObject({ ok: true });
    await second.close();
  });
});
