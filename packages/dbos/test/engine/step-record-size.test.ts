// What each durable step records does not grow with the conversation: a run of a few hundred turns through
// the engine seam (the same steps DBOS records with `runStep`), each turn one call with a result of about a
// kilobyte, every step's record measured as the JSON the engine keeps. The model step records the turn the
// model gave (not the request, which holds the conversation), a tool step its call's result, a journal step
// nothing: the last ten turns record no more than the first ten, within a generous margin. Not timed.
import { createCatalogue, defineTool, everySession } from '@toolcircuit/core';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { describe, expect, it } from 'vitest';
import { driveDurableRun } from '../../src/index.js';
import { memoryEngine, type StepLog } from './memory-engine.js';

const TURNS = 300;

describe('what a durable run records per step', () => {
  it(`stays flat over ${TURNS} turns: the last ten turns record at most 1.5× the first ten`, async () => {
    const catalogue = createCatalogue([
      defineTool({
        name: 'read_page',
        description: 'Reads a page of a long document.',
        inputSchema: { type: 'object', properties: { page: { type: 'integer' } }, required: ['page'] },
        right: everySession,
        run: ({ page }: { page: number }) => `Page ${page}: ${'lorem ipsum dolor sit amet '.repeat(40)}`,
      }),
    ]);
    const model = createScriptedModel([
      ...Array.from({ length: TURNS }, (_, turn) =>
        toolCallsTurn([{ id: `c${turn}`, name: 'read_page', input: { page: turn } }]),
      ),
      textTurn('Read it all.'),
    ]);
    const journaled: unknown[] = [];
    const log: StepLog = [];
    const outcome = await driveDurableRun(
      {
        kind: 'start',
        runId: 'long-run',
        session: { id: 's-long', humanId: 'rea', rights: [] },
        messages: [{ role: 'user', content: 'Read the document.' }],
      },
      memoryEngine('long-run', log, new Map()),
      {
        catalogue,
        model,
        maxTurns: TURNS + 1,
        journal: {
          append: async (entry) => {
            journaled.push(entry);
          },
        },
      },
    );
    expect(outcome.status).toBe('completed');
    // Each turn's steps: its model turn, then its call's steps; the last model step answers with text.
    const perTurn: number[] = [];
    for (const step of log) {
      if (step.name.startsWith('model:')) perTurn.push(0);
      perTurn[perTurn.length - 1] = (perTurn.at(-1) ?? 0) + Buffer.byteLength(JSON.stringify(step.value));
    }
    expect(perTurn).toHaveLength(TURNS + 1);
    const turns = perTurn.slice(0, TURNS);
    const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const first = mean(turns.slice(0, 10));
    const last = mean(turns.slice(-10));
    expect(first).toBeGreaterThan(0);
    expect(last / first, `first ten turns: ${first} bytes recorded each, last ten: ${last}`).toBeLessThanOrEqual(1.5);
    expect(journaled.length).toBeGreaterThanOrEqual(TURNS);
  });
});
