// A durable run given a list of models: the fallback happens inside the run (a turn fallen over is one turn),
// the journal's chain says which model answered each turn, and a run every model failed is recovered from
// the store on the model it was on, without running any call again. Memory and SQLite stores.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  answeringModelOf,
  createCatalogue,
  createSession,
  defineTool,
  everySession,
  ProviderError,
} from '@toolcircuit/core';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createDurableRunner, createMemoryStore, type DurableStore } from '../../src/index.js';
import { openSqliteStore } from '../../src/sqlite/index.js';

const root = mkdtempSync(join(tmpdir(), 'toolcircuit-fallback-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function overloaded(): never {
  throw new ProviderError({
    provider: 'anthropic',
    code: 'overloaded',
    message: 'Overloaded',
    status: 529,
    retryable: true,
  });
}
function down(): never {
  throw new ProviderError({ provider: 'openai', code: 'server_error', message: 'down', status: 503, retryable: true });
}

function noting(done: number[]) {
  return createCatalogue([
    defineTool({
      name: 'note',
      description: 'Write a note.',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      right: everySession,
      run: ({ n }) => {
        done.push(n as number);
        return `noted ${String(n)}`;
      },
    }),
  ]);
}

const session = createSession({ id: 'session-f', humanId: 'marie', rights: [] });
const messages = [{ role: 'user' as const, content: 'Note 1 and 2.' }];

const stores: readonly [string, () => Promise<DurableStore>][] = [
  ['memory', async () => createMemoryStore()],
  ['sqlite', async () => openSqliteStore({ file: join(root, `${Math.random().toString(36).slice(2)}.db`) })],
];

describe.each(stores)('fallback in a durable run (%s)', (_name, open) => {
  it('the secondary answers the failed turn; the chain notes each turn’s model; each call ran once', async () => {
    const store = await open();
    try {
      const done: number[] = [];
      const primary = createScriptedModel([toolCallsTurn([{ id: 'n1', name: 'note', input: { n: 1 } }]), overloaded], {
        provider: 'anthropic',
        modelId: 'claude-test',
      });
      const secondary = createScriptedModel(
        [toolCallsTurn([{ id: 'n2', name: 'note', input: { n: 2 } }]), textTurn('done')],
        { provider: 'openai', modelId: 'gpt-test' },
      );
      const runner = createDurableRunner({ store, catalogue: noting(done), model: [primary, secondary] });
      const result = await runner.start({ session, messages, runId: 'run-f' });
      expect(result.status).toBe('completed');
      expect(done).toEqual([1, 2]);
      expect(result.turns.map((turn) => answeringModelOf(turn)?.provider)).toEqual(['anthropic', 'openai', 'openai']);
      const notes = (await store.readJournal({ runId: 'run-f' }))
        .map((row) => row.record)
        .flatMap((record) => (record.kind === 'note' && record.note === 'answering_model' ? [record] : []));
      expect(notes.map((note) => [note.turn, note.provider, note.fellBackFrom?.[0]?.code])).toEqual([
        [1, 'anthropic', undefined],
        [2, 'openai', 'overloaded'],
        [3, 'openai', undefined],
      ]);
      expect((await store.verifyJournal()).ok).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('every model failed: stored interrupted; recovered on the model it was on, nothing run twice', async () => {
    const store = await open();
    try {
      const done: number[] = [];
      const primary = createScriptedModel([overloaded, overloaded], { provider: 'anthropic', modelId: 'a' });
      const secondary = createScriptedModel([toolCallsTurn([{ id: 'n1', name: 'note', input: { n: 1 } }]), down], {
        provider: 'openai',
        modelId: 'o',
      });
      const first = createDurableRunner({ store, catalogue: noting(done), model: [primary, secondary] });
      const failure = await first.start({ session, messages, runId: 'run-g' }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ProviderError);
      expect(await store.getRun('run-g')).toMatchObject({ status: 'interrupted', interrupted: { turn: 2 } });

      // Another worker, the same list: it asks the secondary first (where the run was).
      const primaryAgain = createScriptedModel([], { provider: 'anthropic', modelId: 'a' });
      const secondaryAgain = createScriptedModel([textTurn('done')], { provider: 'openai', modelId: 'o' });
      const second = createDurableRunner({
        store,
        catalogue: noting(done),
        model: [primaryAgain, secondaryAgain],
        workerId: 'second',
      });
      const result = await second.recover('run-g', { session });
      expect(result.status).toBe('completed');
      expect(done).toEqual([1]);
      expect(primaryAgain.requests).toHaveLength(0);
      expect(result.turns.map((turn) => answeringModelOf(turn)?.member)).toEqual([1, 1]);
    } finally {
      await store.close();
    }
  });
});
