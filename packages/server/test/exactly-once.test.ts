// Exactly once under humans: every way a person's decision can reach the server twice (two tabs at once, a
// double click, a retry after a cut connection, two servers sharing one SQLite file) runs the irreversible
// call once, and every decision is in the store's journal with its human. Real HTTP, a real SQLite file.
import { request } from 'node:http';
import { createCatalogue } from '@toolcircuit/core';
import { openSqliteStore } from '@toolcircuit/stores/sqlite';
import { textTurn } from '@toolcircuit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  json,
  payBob,
  post,
  type Served,
  serve,
  sessions,
  tempStoreFile,
  transferTool,
} from './support/server-world.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A gate the tool waits on: `entered` once a transfer started, `open()` lets it finish. */
function gate() {
  let open: () => void = () => undefined;
  let entered: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const started = new Promise<void>((resolve) => {
    entered = resolve;
  });
  return {
    open,
    started,
    wait: async () => {
      entered();
      await opened;
    },
  };
}

/**
 * Stores whose claims wait until `count` claims arrived across all of them: every decision has then read
 * the paused run and passed every check before any claims it, so only the store's atomic claim can stop
 * the second one (what two tabs, or two servers, at the same instant come down to).
 */
function claimBarrier(count: number) {
  let arrived = 0;
  let release: () => void = () => undefined;
  const all = new Promise<void>((resolve) => {
    release = resolve;
  });
  return <S extends object>(store: S): S =>
    new Proxy(store, {
      get(target, property) {
        const value = Reflect.get(target, property, target);
        if (property === 'claimRun') {
          return async (...args: unknown[]) => {
            arrived += 1;
            if (arrived === count) release();
            await all;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
}

/** The store of the file, its claims held by `barrier`. */
async function heldStore(file: string, barrier: ReturnType<typeof claimBarrier>) {
  const store = await openSqliteStore({ file });
  cleanups.push(() => store.close());
  return barrier(store);
}

async function startPaused(server: Served, token = 'marie-laptop') {
  const response = await post(server, '/runs', { prompt: 'Pay 10 to Bob.' }, token);
  expect(response.status).toBe(201);
  const { run } = await json(response);
  expect(run.status).toBe('paused');
  return { runId: run.id as string, approval: run.pending[0] };
}

const approve = (approval: { inputDigest: string }) => ({
  decisions: [{ callId: 'pay', approved: true, inputDigest: approval.inputDigest }],
});

async function decisionRows(server: Served, runId: string) {
  return (await server.store.readJournal({ runId })).filter((row) => row.record.kind === 'decision');
}

describe('exactly once under humans', () => {
  it('two tabs of one login approving together: one claims the run and the tool runs once, the other gets 409', async () => {
    const temp = tempStoreFile();
    cleanups.push(temp.remove);
    const executions: unknown[] = [];
    const server = await serve(temp.file, [payBob(), textTurn('Sent.')], executions, {
      store: await heldStore(temp.file, claimBarrier(2)),
    });
    cleanups.push(() => server.close());
    const { runId, approval } = await startPaused(server);
    const answers = await Promise.all([
      post(server, `/runs/${runId}/decisions`, approve(approval)),
      post(server, `/runs/${runId}/decisions`, approve(approval)),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const loser = answers.find((answer) => answer.status === 409) as Response;
    // Which of the two 409s depends on whether it read the run before or after the other's claim.
    expect(['decision_conflict', 'run_not_paused']).toContain((await json(loser)).error.code);
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);
    expect(await decisionRows(server, runId)).toHaveLength(1);
  });

  it('a double click: the same decision again while the first is running the tool, then once more after it: one execution, both repeats 409', async () => {
    const temp = tempStoreFile();
    cleanups.push(temp.remove);
    const executions: unknown[] = [];
    const tool = gate();
    const server = await serve(temp.file, [payBob(), textTurn('Sent.')], executions, {
      catalogue: catalogueWith(executions, tool.wait),
    });
    cleanups.push(() => server.close());
    const { runId, approval } = await startPaused(server);
    const first = post(server, `/runs/${runId}/decisions`, approve(approval));
    await tool.started;
    const second = await post(server, `/runs/${runId}/decisions`, approve(approval));
    expect(second.status).toBe(409);
    expect((await json(second)).error.code).toBe('run_not_paused');
    tool.open();
    expect((await first).status).toBe(200);
    const third = await post(server, `/runs/${runId}/decisions`, approve(approval));
    expect(third.status).toBe(409);
    expect((await json(third)).error.code).toBe('run_not_paused');
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);
    expect(await decisionRows(server, runId)).toHaveLength(1);
  });

  it('a retry after a cut connection: the first decision goes on without its client and the tool runs once; the retry gets 409 and reads the decided run', async () => {
    const temp = tempStoreFile();
    cleanups.push(temp.remove);
    const executions: unknown[] = [];
    const tool = gate();
    // The server's view of the decision's connection: its request's signal, aborted when the client is gone.
    const tokens = sessions();
    const signals: AbortSignal[] = [];
    const server = await serve(temp.file, [payBob(), textTurn('Sent.')], executions, {
      catalogue: catalogueWith(executions, tool.wait),
      authenticate: (request) => {
        if (request.url.endsWith('/decisions')) signals.push(request.signal);
        return tokens.get('marie-laptop');
      },
    });
    cleanups.push(() => server.close());
    const { runId, approval } = await startPaused(server);
    // The decision over a connection of its own, destroyed (as a network cut does) once the server has it
    // and the tool is running it.
    const first = request(`${server.base}/runs/${runId}/decisions`, {
      method: 'POST',
      headers: { authorization: 'Bearer marie-laptop', 'content-type': 'application/json' },
      agent: false,
    });
    const cutOff = new Promise<Error>((resolve) => first.on('error', resolve));
    first.on('response', () => expect.unreachable('the cut connection got an answer'));
    first.end(JSON.stringify(approve(approval)));
    await tool.started;
    first.destroy();
    expect((await cutOff).message).toMatch(/socket hang up|aborted/);
    // The tool finishes only once the server has seen the connection go.
    const [seen] = signals;
    if (seen !== undefined && !seen.aborted) await new Promise((resolve) => seen.addEventListener('abort', resolve));
    expect(seen?.aborted).toBe(true);
    tool.open();
    const retry = await post(server, `/runs/${runId}/decisions`, approve(approval));
    expect(retry.status).toBe(409);
    expect((await json(retry)).error.code).toBe('run_not_paused');
    // The cut stopped nothing: the run finishes, and the client reading it again finds its decision.
    let run = (await json(await server.call(`/runs/${runId}`))).run;
    for (let tries = 0; run.status !== 'completed' && tries < 100; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      run = (await json(await server.call(`/runs/${runId}`))).run;
    }
    expect(run).toMatchObject({ status: 'completed', text: 'Sent.', pending: [] });
    expect(run.journal.filter((row: { kind: string }) => row.kind === 'decision')).toEqual([
      expect.objectContaining({ humanId: 'marie', callId: 'pay', approved: true }),
    ]);
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);
  });

  it('every decision is journaled with its human, from either of her logins, approvals and declines alike', async () => {
    const temp = tempStoreFile();
    cleanups.push(temp.remove);
    const executions: unknown[] = [];
    const server = await serve(temp.file, [payBob(), payBob(), textTurn('Sent.'), textTurn('Not sent.')], executions);
    cleanups.push(() => server.close());
    const laptop = await startPaused(server, 'marie-laptop');
    const phone = await startPaused(server, 'marie-phone');
    // Each run decided from the other login than the one that started it.
    const approved = await post(server, `/runs/${laptop.runId}/decisions`, approve(laptop.approval), 'marie-phone');
    expect(approved.status).toBe(200);
    const declined = await post(
      server,
      `/runs/${phone.runId}/decisions`,
      { decisions: [{ callId: 'pay', approved: false, inputDigest: phone.approval.inputDigest }] },
      'marie-laptop',
    );
    expect(declined.status).toBe(200);
    const rows = [...(await decisionRows(server, laptop.runId)), ...(await decisionRows(server, phone.runId))];
    expect(rows.map((row) => row.record)).toEqual([
      expect.objectContaining({ runId: laptop.runId, humanId: 'marie', callId: 'pay', approved: true }),
      expect.objectContaining({ runId: phone.runId, humanId: 'marie', callId: 'pay', approved: false }),
    ]);
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);
    expect((await server.store.verifyJournal()).ok).toBe(true);
  });

  it('two servers sharing one SQLite file: each lists the run the other started, and of two approvals at once, one on each, the tool runs once', async () => {
    const temp = tempStoreFile();
    cleanups.push(temp.remove);
    const onA: unknown[] = [];
    const onB: unknown[] = [];
    // Each server its own connection to the file; both decisions reach the claim before either claims.
    const barrier = claimBarrier(2);
    const a = await serve(temp.file, [payBob(), textTurn('Sent from A.')], onA, {
      store: await heldStore(temp.file, barrier),
    });
    cleanups.push(() => a.close());
    const b = await serve(temp.file, [textTurn('Sent from B.')], onB, { store: await heldStore(temp.file, barrier) });
    cleanups.push(() => b.close());
    const { runId, approval } = await startPaused(a);
    const listed = (await json(await b.call('/approvals', { token: 'marie-phone' }))).approvals;
    expect(listed).toEqual([approval]);
    const answers = await Promise.all([
      post(a, `/runs/${runId}/decisions`, approve(approval)),
      post(b, `/runs/${runId}/decisions`, approve(approval), 'marie-phone'),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const loser = answers.find((answer) => answer.status === 409) as Response;
    // Which of the two 409s depends on whether it read the run before or after the other's claim.
    expect(['decision_conflict', 'run_not_paused']).toContain((await json(loser)).error.code);
    expect([...onA, ...onB]).toEqual([{ amount: 10, to: 'bob' }]);
    expect(await decisionRows(a, runId)).toHaveLength(1);
    // Both read the same finished run.
    const [fromA, fromB] = await Promise.all([a.call(`/runs/${runId}`), b.call(`/runs/${runId}`)]);
    expect((await json(fromA)).run.status).toBe('completed');
    expect((await json(fromB)).run.status).toBe('completed');
  });
});

/** The transfer alone, waiting on `wait` before it counts its execution (a tool still running). */
function catalogueWith(executions: unknown[], wait: () => Promise<void>) {
  return createCatalogue([transferTool(executions, wait)]);
}
