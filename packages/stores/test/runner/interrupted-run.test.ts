// The model fails on turn 3 of 5 during a durable run. The run is stored as interrupted, with everything
// played, and a second process continues it from the same store: turns 1–2's calls never run again.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCatalogue, createSession, defineTool, everySession, ProviderError } from '@toolcircuit/core';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDurableRunner, createMemoryStore, type DurableStore } from '../../src/index.js';
import { openPostgresStore } from '../../src/postgres/index.js';
import { openSqliteStore } from '../../src/sqlite/index.js';
import { buildForChildren, effectsIn } from '../support/child-builds.js';
import { POSTGRES_MISSING, postgresTestUrl, requirePostgresInCi } from '../support/postgres-url.js';
import { approveAll, done, marie as marieOf, startPaused, toolReplies, world } from '../support/world.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'toolcircuit-interrupted-'));
const postgresUrl = postgresTestUrl();
requirePostgresInCi(postgresUrl);

beforeAll(buildForChildren, 180_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The same tool as the child's (same name, schema and right: the catalogue fingerprint must match). */
function noteTool(effects: string) {
  return defineTool({
    name: 'note',
    description: 'Write a note. Counts its executions.',
    inputSchema: {
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: ['n'],
      additionalProperties: false,
    },
    right: everySession,
    run: (input) => {
      appendFileSync(effects, `${JSON.stringify({ pid: process.pid, input })}\n`);
      return `noted ${input.n}`;
    },
  });
}

function overloaded(): never {
  throw new ProviderError({ provider: 'scripted', code: 'overloaded', message: 'overloaded (529)', retryable: true });
}

function runChild(config: Record<string, unknown>): Promise<{ status: string; turns: number; requests: number[] }> {
  const child = spawn(process.execPath, [join(here, 'fixtures', 'continue-child.mjs'), JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`the child exited ${code}: ${stderr}`)),
    ),
  );
}

async function failOnTurnThreeThenContinue(store: DurableStore, child: Record<string, unknown>, effects: string) {
  const runner = createDurableRunner({
    store,
    catalogue: createCatalogue([noteTool(effects)]),
    model: createScriptedModel([
      toolCallsTurn([{ id: 'note-1', name: 'note', input: { n: 1 } }]),
      toolCallsTurn([
        { id: 'note-2a', name: 'note', input: { n: 2 } },
        { id: 'note-2b', name: 'note', input: { n: 20 } },
      ]),
      overloaded,
      textTurn('never reached in this process'),
    ]),
  });
  const session = createSession({ id: 'session-7', humanId: 'marie', rights: [] });
  const failure = await runner
    .start({ session, messages: [{ role: 'user', content: 'Note 1 to 4.' }], runId: 'run-i' })
    .then(
      () => undefined,
      (error: unknown) => error,
    );
  expect(failure).toBeInstanceOf(ProviderError);
  const stored = await store.getRun('run-i');
  expect(stored).toMatchObject({ status: 'interrupted', interrupted: { turn: 3 } });
  expect(stored?.interrupted?.answeredCallIds).toEqual(['note-1', 'note-2a', 'note-2b']);
  expect(stored?.error).toMatch(/overloaded/);

  const continued = await runChild({ ...child, runId: 'run-i', effects });
  const final = await store.getRun('run-i');
  const journal = (await store.readJournal({ runId: 'run-i' })).map((row) => row.record);
  return { continued, final, journal, verification: await store.verifyJournal() };
}

function expectContinuedOnce(outcome: Awaited<ReturnType<typeof failOnTurnThreeThenContinue>>, effects: string) {
  expect(outcome.continued).toMatchObject({ status: 'completed', turns: 5 });
  const done = effectsIn<{ pid: number; input: { n: number } }>(effects);
  // Each call executed exactly once: turns 1–2 here, turns 3–4 in the child, none twice.
  expect(done.map((effect) => effect.input.n)).toEqual([1, 2, 20, 3, 4]);
  expect(done.slice(0, 3).every((effect) => effect.pid === process.pid)).toBe(true);
  expect(done.slice(3).every((effect) => effect.pid !== process.pid)).toBe(true);
  expect(outcome.final).toMatchObject({ status: 'completed', result: { status: 'completed' } });
  expect(outcome.final?.interrupted).toBeUndefined();
  // Every call starts under a start record (a turn's calls run together, so only the counts are fixed);
  // none of the three answered before the failure runs again.
  const kinds = outcome.journal.map((record) => record.kind);
  const recovery = kinds.indexOf('recovery');
  expect(kinds.filter((kind) => kind === 'recovery')).toHaveLength(1);
  expect([...kinds.slice(0, recovery)].sort()).toEqual(['call', 'call', 'call', 'start', 'start', 'start']);
  expect([...kinds.slice(recovery + 1)].sort()).toEqual(['call', 'call', 'start', 'start']);
  expect(outcome.verification.ok).toBe(true);
}

describe('a durable run the model interrupted, continued by another process', () => {
  it('SQLite: stored as interrupted on turn 3 of 5, continued in a child process, no call runs twice', async () => {
    const dir = mkdtempSync(join(root, 'sqlite-'));
    const file = join(dir, 'toolcircuit.sqlite');
    const effects = join(dir, 'effects.log');
    const store = await openSqliteStore({ file });
    try {
      const outcome = await failOnTurnThreeThenContinue(store, { backend: 'sqlite', file }, effects);
      expectContinuedOnce(outcome, effects);
    } finally {
      await store.close();
    }
  }, 60_000);

  it.skipIf(postgresUrl === undefined)(
    `PostgreSQL: stored as interrupted on turn 3 of 5, continued in a child process${postgresUrl === undefined ? ` (${POSTGRES_MISSING})` : ''}`,
    async () => {
      const dir = mkdtempSync(join(root, 'postgres-'));
      const effects = join(dir, 'effects.log');
      const schema = `interrupted_${process.pid}_${Date.now()}`;
      const store = await openPostgresStore({ connectionString: postgresUrl as string, schema });
      try {
        const outcome = await failOnTurnThreeThenContinue(
          store,
          { backend: 'postgres', url: postgresUrl, schema },
          effects,
        );
        expectContinuedOnce(outcome, effects);
      } finally {
        await store.close();
      }
    },
    60_000,
  );

  it('a run the model interrupted is not continued by another session', async () => {
    const dir = mkdtempSync(join(root, 'session-'));
    const effects = join(dir, 'effects.log');
    const store = await openSqliteStore({ file: join(dir, 'toolcircuit.sqlite') });
    try {
      const catalogue = createCatalogue([noteTool(effects)]);
      const model = createScriptedModel([toolCallsTurn([{ name: 'note', input: { n: 1 } }]), overloaded]);
      const marie = createSession({ id: 'session-7', humanId: 'marie', rights: [] });
      await expect(
        createDurableRunner({ store, catalogue, model }).start({
          session: marie,
          messages: [{ role: 'user', content: 'Note.' }],
          runId: 'run-s',
        }),
      ).rejects.toBeInstanceOf(ProviderError);
      const bob = createSession({ id: 'session-9', humanId: 'bob', rights: [] });
      const again = createDurableRunner({ store, catalogue, model: createScriptedModel([textTurn('no')]) });
      await expect(again.recover('run-s', { session: bob })).rejects.toThrow(/another session/);
      expect(await store.getRun('run-s')).toMatchObject({ status: 'interrupted' });
      expect(effectsIn<{ pid: number; input: { n: number } }>(effects)).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('the model fails after a resumed turn: recover asks again and the approved transfer is not run twice', async () => {
    const w = world();
    const store = createMemoryStore();
    const paused = await startPaused(w, store);
    await expect(
      w.runner(store, [overloaded]).resume('run-1', approveAll(paused), { session: marieOf() }),
    ).rejects.toBeInstanceOf(ProviderError);
    expect(w.executions).toHaveLength(1);
    const stored = await store.getRun('run-1');
    expect(stored).toMatchObject({ status: 'interrupted', interrupted: { turn: 2 } });
    expect(stored?.paused).toBeUndefined();

    const recovered = await w.runner(store, [done]).recover('run-1', { session: marieOf() });
    expect(recovered.status).toBe('completed');
    expect(w.executions).toHaveLength(1);
    expect(toolReplies(recovered.messages)).toHaveLength(1);
    expect(await store.getRun('run-1')).toMatchObject({ status: 'completed' });
    expect((await store.verifyJournal()).ok).toBe(true);
  });
});
