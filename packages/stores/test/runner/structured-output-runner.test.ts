// A durable run that asks for a structured answer: the `output` option is given to each runner again (as
// every loop option is), and the answer after a resume from the store (a fresh runner over the same SQLite
// file, as another process would be) is validated, corrected once, and stored with the run's result.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonDigest, OutputValidationError } from '@toolcircuit/core';
import { createScriptedModel, textTurn } from '@toolcircuit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createDurableRunner } from '../../src/index.js';
import { openSqliteStore } from '../../src/sqlite/index.js';
import { approveAll, marie, pausingTurn, user, worldCatalogue } from '../support/world.js';

const root = mkdtempSync(join(tmpdir(), 'toolcircuit-structured-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const receipt = {
  type: 'object',
  properties: { paid: { type: 'integer', minimum: 0 }, to: { type: 'string' } },
  required: ['paid', 'to'],
  additionalProperties: false,
} as const;

describe('durable runner with a structured answer', () => {
  it('after a resume in a fresh runner: the answer is corrected once, validated, typed and stored', async () => {
    const executions: unknown[] = [];
    const catalogue = worldCatalogue(executions);
    const output = { schema: receipt };
    const store = await openSqliteStore({ file: join(root, 'answer.sqlite') });
    try {
      const first = createDurableRunner({ store, catalogue, output, model: createScriptedModel([pausingTurn()]) });
      const started = await first.start({ session: marie(), messages: user, runId: 'run-answer' });
      expect(started.status).toBe('paused');
      const paused = (await store.getRun('run-answer'))?.paused;
      if (paused === undefined) throw new Error('no paused state stored');

      const model = createScriptedModel([textTurn('{"paid":"10","to":"bob"}'), textTurn('{"paid":10,"to":"bob"}')]);
      const second = createDurableRunner({ store, catalogue, output, model });
      const resumed = await second.resume('run-answer', approveAll(paused), { session: marie() });
      expect(resumed.status).toBe('completed');
      expect(resumed.output).toEqual({ paid: 10, to: 'bob' });
      expect(executions).toEqual([{ amount: 10, to: 'bob' }]);
      // The corrective request asked for the answer only, after the model had the format on every request.
      expect(model.requests.map((request) => [request.output?.name, request.toolChoice])).toEqual([
        ['final_answer', undefined],
        ['final_answer', 'none'],
      ]);
      const stored = await store.getRun('run-answer');
      expect(stored?.result?.output).toEqual({ paid: 10, to: 'bob' });
      // Every journaled call names the schema its run answers to.
      const calls = (await store.readJournal({ runId: 'run-answer' }))
        .map((row) => row.record)
        .filter((record) => record.kind === 'call');
      // The lookup, the transfer held for approval, the transfer run after it.
      expect(calls.length).toBe(3);
      for (const call of calls) expect(call).toMatchObject({ outputSchemaDigest: jsonDigest(receipt) });
    } finally {
      await store.close();
    }
  });

  it('a resumed answer that fails twice throws OutputValidationError with the raw text', async () => {
    const catalogue = worldCatalogue([]);
    const output = { schema: receipt };
    const store = await openSqliteStore({ file: join(root, 'refused.sqlite') });
    try {
      const first = createDurableRunner({ store, catalogue, output, model: createScriptedModel([pausingTurn()]) });
      await first.start({ session: marie(), messages: user, runId: 'run-refused' });
      const paused = (await store.getRun('run-refused'))?.paused;
      if (paused === undefined) throw new Error('no paused state stored');
      const model = createScriptedModel([textTurn('paid'), textTurn('{"paid":-1,"to":"bob"}')]);
      const second = createDurableRunner({ store, catalogue, output, model });
      const failure = await second
        .resume('run-refused', approveAll(paused), { session: marie() })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(OutputValidationError);
      expect((failure as OutputValidationError).rawText).toBe('{"paid":-1,"to":"bob"}');
    } finally {
      await store.close();
    }
  });
});
