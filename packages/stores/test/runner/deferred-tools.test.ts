// The loaded tools of a run with deferred tools are part of the paused state the durable runner stores:
// a run resumed from the store (a fresh runner, as in another process) shows the model the same tools and
// lets calls to them through.
import { createCatalogue, createSession, type StepContext, type StepSettings } from '@toolcircuit/core';
import { createScriptedModel, toolCallsTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { createDurableRunner, createMemoryStore } from '../../src/index.js';
import { approveAll, done, lookupTool, marie, pausingTurn, toolReplies, transferTool, user } from '../support/world.js';

describe('durable runner with deferred tools', () => {
  it('stores the loaded tools with the paused run; the resumed run shows and allows them', async () => {
    const executions: unknown[] = [];
    const catalogue = createCatalogue([lookupTool(), transferTool(executions)], { defer: true });
    const store = createMemoryStore();
    const search = toolCallsTurn([
      { id: 'find', name: 'tool_search', input: { query: 'transfer money look up case' } },
    ]);
    const first = createDurableRunner({ store, catalogue, model: createScriptedModel([search, pausingTurn()]) });
    const started = await first.start({ session: marie(), messages: user, runId: 'run-deferred' });
    expect(started.status).toBe('paused');
    const stored = await store.getRun('run-deferred');
    expect([...(stored?.paused?.loadedTools ?? [])].sort()).toEqual(['lookup_case', 'transfer']);

    const again = toolCallsTurn([{ id: 'again', name: 'lookup_case', input: { number: 'B-1' } }]);
    const model = createScriptedModel([again, done]);
    const second = createDurableRunner({ store, catalogue, model });
    const paused = stored?.paused;
    if (paused === undefined) throw new Error('no paused state stored');
    const resumed = await second.resume('run-deferred', approveAll(paused), {
      session: createSession({ id: 'session-7', humanId: 'marie', rights: ['payments:write'] }),
    });
    expect(resumed.status).toBe('completed');
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['tool_search', 'lookup_case', 'transfer']);
    const lastReply = toolReplies(resumed.messages).at(-1)?.content[0];
    expect([lastReply?.callId, lastReply?.isError]).toEqual(['again', false]);
  });

  it('stores the loaded tools and the step plan together; the resume restores both', async () => {
    const executions: unknown[] = [];
    const catalogue = createCatalogue([lookupTool(), transferTool(executions)], { defer: true });
    const store = createMemoryStore();
    // Step 1: no restriction (the search loads both tools); later steps: the search and transfer only.
    const prepareStep = ({ turn }: StepContext): StepSettings | undefined =>
      turn === 1 ? undefined : { activeTools: ['tool_search', 'transfer'] };
    const search = toolCallsTurn([
      { id: 'find', name: 'tool_search', input: { query: 'transfer money look up case' } },
    ]);
    const first = createDurableRunner({
      store,
      catalogue,
      prepareStep,
      model: createScriptedModel([search, pausingTurn()]),
    });
    const started = await first.start({ session: marie(), messages: user, runId: 'run-deferred-plan' });
    expect(started.status).toBe('paused');
    const stored = await store.getRun('run-deferred-plan');
    const paused = stored?.paused;
    if (paused === undefined) throw new Error('no paused state stored');
    expect([...(paused.loadedTools ?? [])].sort()).toEqual(['lookup_case', 'transfer']);
    expect(paused.step?.activeTools).toEqual(['transfer', 'tool_search']);
    // lookup_case was loaded, but the paused step's plan left it out.
    const refusal = paused.results[0];
    expect(refusal?.isError).toBe(true);
    expect(JSON.stringify(refusal?.content)).toContain('is not available at this step');

    const model = createScriptedModel([done]);
    const second = createDurableRunner({ store, catalogue, prepareStep, model });
    const resumed = await second.resume('run-deferred-plan', approveAll(paused), {
      session: createSession({ id: 'session-7', humanId: 'marie', rights: ['payments:write'] }),
    });
    expect(resumed.status).toBe('completed');
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);
    // The next step is planned over the restored loaded tools: the search and transfer, not lookup_case.
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['tool_search', 'transfer']);
  });
});
