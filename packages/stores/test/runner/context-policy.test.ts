// A context policy through the durable runner on a real SQLite file: the model is sent cleared results, the
// store keeps every result whole (the paused state, the journal, the finished run), and a resume in another
// runner shapes its requests again from the whole originals it read back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ContextPolicy, defineTool, everySession, type Message, toolResultText } from '@toolcircuit/core';
import { createScriptedModel, textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createDurableRunner } from '../../src/index.js';
import { openSqliteStore } from '../../src/sqlite/index.js';
import { approveAll, marie, toolReplies, user, worldCatalogue } from '../support/world.js';

const root = mkdtempSync(join(tmpdir(), 'toolcircuit-context-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const PAGE = (n: number) => `page ${n}: ${'archive text '.repeat(1_600)}`;
const readPage = defineTool({
  name: 'read_page',
  description: 'Reads a page of the archive.',
  inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false },
  right: everySession,
  run: ({ n }) => PAGE(n),
});
const policy: ContextPolicy = { maxTokens: 12_000, keepTurns: 1 };
const cleared = (messages: readonly Message[]) =>
  toolReplies(messages).flatMap((reply) =>
    reply.content.map((part) => toolResultText(part.content).startsWith('[Result cleared to fit the context window')),
  );

describe('a context policy in a durable run', () => {
  it('sends cleared results, stores the originals, and shapes again after a resume from the store', async () => {
    const file = join(root, 'runs.sqlite');
    const executions: unknown[] = [];
    const catalogue = worldCatalogue(executions, [readPage]);
    const first = await openSqliteStore({ file });
    const firstModel = createScriptedModel([
      ...[1, 2, 3, 4].map((n) => toolCallsTurn([{ id: `p${n}`, name: 'read_page', input: { n } }])),
      toolCallsTurn([{ id: 'pay', name: 'transfer', input: { amount: 10, to: 'bob' } }]),
    ]);
    const started = await createDurableRunner({
      store: first,
      catalogue,
      model: firstModel,
      contextPolicy: policy,
    }).start({ session: marie(), messages: user, runId: 'run-context' });
    expect(started.status).toBe('paused');
    // The model saw the old pages cleared…
    expect(cleared(firstModel.requests.at(-1)?.messages ?? [])).toEqual([true, true, true, false]);
    // …the store holds them whole.
    const stored = await first.getRun('run-context');
    const pages = toolReplies(stored?.paused?.messages ?? []).flatMap((reply) => reply.content);
    expect(pages.map((part) => part.content)).toEqual([1, 2, 3, 4].map(PAGE));
    await first.close();

    // Another process: a new connection and runner; the approved transfer runs, the next requests are shaped.
    const second = await openSqliteStore({ file });
    const secondModel = createScriptedModel([
      toolCallsTurn([{ id: 'p5', name: 'read_page', input: { n: 5 } }]),
      textTurn('Read five pages and paid Bob.'),
    ]);
    const paused = (await second.getRun('run-context'))?.paused;
    if (paused === undefined) throw new Error('the run is not paused in the store');
    const resumed = await createDurableRunner({
      store: second,
      catalogue,
      model: secondModel,
      contextPolicy: policy,
    }).resume('run-context', approveAll(paused), { session: marie() });
    expect(resumed.status).toBe('completed');
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);
    for (const request of secondModel.requests)
      expect(cleared(request.messages).slice(0, 3)).toEqual([true, true, true]);
    const finished = await second.getRun('run-context');
    expect(finished?.status).toBe('completed');
    const kept = toolReplies(finished?.result?.messages ?? [])
      .flatMap((reply) => reply.content)
      .filter((part) => part.name === 'read_page');
    expect(kept.map((part) => part.content)).toEqual([1, 2, 3, 4, 5].map(PAGE));
    await second.close();
  });
});
