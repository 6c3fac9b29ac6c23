import { toolResultText } from '@toolcircuit/core';
import { textTurn, toolCallsTurn } from '@toolcircuit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { json, payBob, post, type Served, serve, sessions, tempStoreFile } from './support/server-world.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function served(steps: Parameters<typeof serve>[1], executions: unknown[], extra?: Parameters<typeof serve>[3]) {
  const temp = tempStoreFile();
  cleanups.push(temp.remove);
  const server = await serve(temp.file, steps, executions, extra);
  cleanups.push(() => server.close());
  return server;
}

/** Starts a run as Marie that pauses on the transfer; returns its id and its one pending approval. */
async function startPaused(server: Served) {
  const response = await post(server, '/runs', { prompt: 'Pay 10 to Bob.' });
  expect(response.status).toBe(201);
  const { run } = await json(response);
  expect(run.status).toBe('paused');
  expect(run.pending).toHaveLength(1);
  return { runId: run.id as string, approval: run.pending[0] };
}

describe('run server', () => {
  it('start → paused → the approval is listed → approved from another login of the same human → the tool ran once → completed, the decision journaled with her', async () => {
    const executions: unknown[] = [];
    const server = await served([payBob(), textTurn('Sent 10 to Bob.')], executions);
    const { runId, approval } = await startPaused(server);
    expect(executions).toEqual([]);

    const listed = await json(await server.call('/approvals', { token: 'marie-phone' }));
    expect(listed.approvals).toHaveLength(1);
    expect(listed.approvals[0]).toMatchObject({
      runId,
      callId: 'pay',
      toolName: 'transfer',
      input: { amount: 10, to: 'bob' },
      inputDigest: approval.inputDigest,
      untrustedSources: [],
      flaggedArguments: [],
    });

    const decided = await post(
      server,
      `/runs/${runId}/decisions`,
      { decisions: [{ callId: 'pay', approved: true, inputDigest: approval.inputDigest }] },
      'marie-phone',
    );
    expect(decided.status).toBe(200);
    const { run } = await json(decided);
    expect(run.status).toBe('completed');
    expect(run.text).toBe('Sent 10 to Bob.');
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);
    const decision = run.journal.find((row: { kind: string }) => row.kind === 'decision');
    expect(decision).toMatchObject({ humanId: 'marie', callId: 'pay', approved: true });
    expect(run.journal.map((row: { kind: string }) => row.kind)).toEqual(
      expect.arrayContaining(['call', 'decision', 'start']),
    );
    // What the journal keeps for the operator (worker ids, tool error texts) is not shown to the human.
    expect(JSON.stringify(run.journal)).not.toMatch(/workerId|"detail"/);

    expect((await json(await server.call('/approvals'))).approvals).toEqual([]);
    const read = await json(await server.call(`/runs/${runId}`));
    expect(read.run).toMatchObject({ id: runId, status: 'completed', pending: [] });
  });

  it('a decline reaches the model as a refusal with the human note, and nothing runs', async () => {
    const executions: unknown[] = [];
    let refusal = '';
    const server = await served(
      [
        payBob(),
        (request) => {
          const reply = request.messages.at(-1);
          if (reply?.role === 'tool') refusal = toolResultText(reply.content[0]?.content ?? '');
          return textTurn('I did not send anything.');
        },
      ],
      executions,
    );
    const { runId, approval } = await startPaused(server);
    const response = await post(server, `/runs/${runId}/decisions`, {
      decisions: [{ callId: 'pay', approved: false, inputDigest: approval.inputDigest, note: 'Bob was paid already.' }],
    });
    expect(response.status).toBe(200);
    expect((await json(response)).run.status).toBe('completed');
    expect(executions).toEqual([]);
    expect(refusal).toMatch(/Bob was paid already/);
  });

  it('untrusted output in the run: the approval shows the source with an excerpt and the flagged value; only the current taint digest is accepted', async () => {
    const executions: unknown[] = [];
    const server = await served(
      [
        toolCallsTurn([{ id: 'mail', name: 'read_inbox', input: {} }]),
        toolCallsTurn([{ id: 'pay', name: 'transfer', input: { amount: 4411, to: 'mallory-offshore-77' } }]),
        textTurn('Paid.'),
      ],
      executions,
    );
    const { runId, approval } = await startPaused(server);
    const [listed] = (await json(await server.call('/approvals'))).approvals;
    expect(listed.taintDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(listed.gatedBecause).toBe('irreversible');
    expect(listed.untrustedSources).toHaveLength(1);
    expect(listed.untrustedSources[0]).toMatchObject({ callId: 'mail', toolName: 'read_inbox', truncated: true });
    // The excerpt is cut around the copied value, not the start of a long mail.
    expect(listed.untrustedSources[0].excerpt).toContain('mallory-offshore-77');
    expect(listed.flaggedArguments).toEqual([
      expect.objectContaining({ path: '/amount', value: 4411 }),
      expect.objectContaining({ path: '/to', value: 'mallory-offshore-77' }),
    ]);
    expect(listed).toEqual(approval);

    const decide = (extra: object) =>
      post(server, `/runs/${runId}/decisions`, {
        decisions: [{ callId: 'pay', approved: true, inputDigest: approval.inputDigest, ...extra }],
      });
    const unnamed = await decide({});
    expect(unnamed.status).toBe(409);
    expect((await json(unnamed)).error.code).toBe('taint_digest_mismatch');
    const older = await decide({ taintDigest: '0'.repeat(64) });
    expect(older.status).toBe(409);
    expect((await json(older)).error.code).toBe('taint_digest_mismatch');
    expect(executions).toEqual([]);

    const informed = await decide({ taintDigest: listed.taintDigest });
    expect(informed.status).toBe(200);
    expect((await json(informed)).run.status).toBe('completed');
    expect(executions).toEqual([{ amount: 4411, to: 'mallory-offshore-77' }]);
  });

  it('a decision for other arguments is refused with 409 and changes nothing; a call that is not pending is 409', async () => {
    const executions: unknown[] = [];
    const server = await served([payBob(), textTurn('Sent.')], executions);
    const { runId, approval } = await startPaused(server);
    const stale = await post(server, `/runs/${runId}/decisions`, {
      decisions: [{ callId: 'pay', approved: true, inputDigest: 'f'.repeat(64) }],
    });
    expect(stale.status).toBe(409);
    expect((await json(stale)).error.code).toBe('input_digest_mismatch');
    const unknownCall = await post(server, `/runs/${runId}/decisions`, {
      decisions: [{ callId: 'other', approved: true, inputDigest: approval.inputDigest }],
    });
    expect(unknownCall.status).toBe(409);
    expect((await json(unknownCall)).error.code).toBe('call_not_pending');
    expect(executions).toEqual([]);
    expect((await json(await server.call(`/runs/${runId}`))).run.status).toBe('paused');

    const good = await post(server, `/runs/${runId}/decisions`, {
      decisions: [{ callId: 'pay', approved: true, inputDigest: approval.inputDigest }],
    });
    expect(good.status).toBe(200);
    const again = await post(server, `/runs/${runId}/decisions`, {
      decisions: [{ callId: 'pay', approved: true, inputDigest: approval.inputDigest }],
    });
    expect(again.status).toBe(409);
    expect((await json(again)).error.code).toBe('run_not_paused');
    expect(executions).toHaveLength(1);
  });

  it('two identical approvals at once (two tabs, a double click): the tool runs once, one of them gets 409', async () => {
    const executions: unknown[] = [];
    const server = await served([payBob(), textTurn('Sent.')], executions);
    const { runId, approval } = await startPaused(server);
    const body = { decisions: [{ callId: 'pay', approved: true, inputDigest: approval.inputDigest }] };
    const answers = await Promise.all([
      post(server, `/runs/${runId}/decisions`, body, 'marie-laptop'),
      post(server, `/runs/${runId}/decisions`, body, 'marie-phone'),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 409]);
    const loser = answers.find((answer) => answer.status === 409) as Response;
    expect(['decision_conflict', 'run_not_paused']).toContain((await json(loser)).error.code);
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);
    const rows = (await json(await server.call(`/runs/${runId}`))).run.journal;
    expect(rows.filter((row: { kind: string }) => row.kind === 'decision')).toHaveLength(1);
  });

  it('another human never sees, decides or cancels the run: 404 as for a run that does not exist, and an empty inbox', async () => {
    const executions: unknown[] = [];
    const server = await served([payBob(), textTurn('Sent.')], executions);
    const { runId, approval } = await startPaused(server);
    const missing = await server.call('/runs/no-such-run', { token: 'omar' });
    const read = await server.call(`/runs/${runId}`, { token: 'omar' });
    expect(read.status).toBe(404);
    expect(await json(read)).toEqual(await json(missing));
    const decision = { decisions: [{ callId: 'pay', approved: true, inputDigest: approval.inputDigest }] };
    const decided = await post(server, `/runs/${runId}/decisions`, decision, 'omar');
    expect(decided.status).toBe(404);
    expect((await json(decided)).error.code).toBe('run_not_found');
    expect((await post(server, `/runs/${runId}/cancel`, {}, 'omar')).status).toBe(404);
    expect((await json(await server.call('/approvals', { token: 'omar' }))).approvals).toEqual([]);
    expect(executions).toEqual([]);
    // Still Marie's, untouched.
    expect((await json(await server.call('/approvals'))).approvals).toHaveLength(1);
  });

  it('cancelling a paused run declines its calls (journaled with the human) and ends it aborted, without asking the model again', async () => {
    const executions: unknown[] = [];
    let asked = 0;
    const server = await served(
      [
        payBob(),
        () => {
          asked += 1;
          return textTurn('unexpected');
        },
      ],
      executions,
    );
    const { runId, approval } = await startPaused(server);
    const cancelled = await post(server, `/runs/${runId}/cancel`, {});
    expect(cancelled.status).toBe(200);
    const { run } = await json(cancelled);
    expect(run.status).toBe('aborted');
    expect(asked).toBe(0);
    expect(executions).toEqual([]);
    const decision = run.journal.find((row: { kind: string }) => row.kind === 'decision');
    expect(decision).toMatchObject({ humanId: 'marie', approved: false });
    const late = await post(server, `/runs/${runId}/decisions`, {
      decisions: [{ callId: 'pay', approved: true, inputDigest: approval.inputDigest }],
    });
    expect(late.status).toBe(409);
    const again = await post(server, `/runs/${runId}/cancel`, {});
    expect(again.status).toBe(409);
    expect((await json(again)).error.code).toBe('run_not_cancellable');
  });

  it('cancelling a run this server is playing aborts it where it is', async () => {
    const executions: unknown[] = [];
    let entered: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const server = await served(
      [
        async (request) => {
          entered();
          // A slow model: it answers only once the run is aborted.
          await new Promise((resolve) => request.signal?.addEventListener('abort', resolve, { once: true }));
          return payBob();
        },
      ],
      executions,
    );
    const starting = post(server, '/runs', { prompt: 'Pay 10 to Bob.' });
    await asked;
    // The run being played is the store's one claimed run (its id is in the answer a client is still waiting for).
    const claimed = await server.store.listExpiredClaims({ at: '9999-01-01T00:00:00.000Z' });
    expect(claimed).toHaveLength(1);
    const playing = claimed[0]?.runId;
    const cancelled = await post(server, `/runs/${playing}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect((await json(cancelled)).run.status).toBe('aborted');
    const started = await starting;
    expect(started.status).toBe(201);
    expect((await json(started)).run).toMatchObject({ id: playing, status: 'aborted' });
    expect(executions).toEqual([]);
  });

  it('after two identical approvals, the run the winner is playing can still be cancelled (the loser does not hide it)', async () => {
    const executions: unknown[] = [];
    const tokens = sessions();
    let arrived = 0;
    let release: () => void = () => undefined;
    const bothArrived = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = await served(
      [
        payBob(),
        async (request) => {
          // The model after the approved transfer answers only once the run is aborted.
          await new Promise((resolve) => request.signal?.addEventListener('abort', resolve, { once: true }));
          return textTurn('Sent.');
        },
      ],
      executions,
      {
        // Both decisions are held until both arrived, so both pass the checks and race for the claim.
        authenticate: async (request) => {
          if (request.url.endsWith('/decisions')) {
            arrived += 1;
            if (arrived === 2) release();
            await bothArrived;
          }
          return tokens.get('marie-laptop');
        },
      },
    );
    const { runId, approval } = await startPaused(server);
    const body = { decisions: [{ callId: 'pay', approved: true, inputDigest: approval.inputDigest }] };
    const first = post(server, `/runs/${runId}/decisions`, body);
    const second = post(server, `/runs/${runId}/decisions`, body);
    // The winner waits on the model; the loser answers at once.
    const loser = await Promise.race([first, second]);
    expect(loser.status).toBe(409);
    const cancelled = await post(server, `/runs/${runId}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect((await json(cancelled)).run.status).toBe('aborted');
    const winner = (await first) === loser ? await second : await first;
    expect(winner.status).toBe(200);
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);
  });

  it('a model that fails leaves the run interrupted, and the answer says so with the error', async () => {
    const executions: unknown[] = [];
    const server = await served(
      [
        () => {
          throw new Error('the provider is down');
        },
      ],
      executions,
    );
    const response = await post(server, '/runs', { prompt: 'Pay 10 to Bob.' });
    expect(response.status).toBe(201);
    const { run } = await json(response);
    expect(run.status).toBe('interrupted');
    expect(run.error).toMatch(/the provider is down/);
    expect((await json(await server.call(`/runs/${run.id}`))).run.status).toBe('interrupted');
  });

  it('a server started again over the same store file goes on with the run the first one paused', async () => {
    const temp = tempStoreFile();
    cleanups.push(temp.remove);
    const executions: unknown[] = [];
    const first = await serve(temp.file, [payBob()], executions);
    const { runId, approval } = await startPaused(first);
    await first.close();

    const second = await serve(temp.file, [textTurn('Sent after the restart.')], executions);
    cleanups.push(() => second.close());
    const listed = (await json(await second.call('/approvals', { token: 'marie-phone' }))).approvals;
    expect(listed).toEqual([approval]);
    const decided = await post(second, `/runs/${runId}/decisions`, {
      decisions: [{ callId: 'pay', approved: true, inputDigest: approval.inputDigest }],
    });
    expect(decided.status).toBe(200);
    expect((await json(decided)).run).toMatchObject({ status: 'completed', text: 'Sent after the restart.' });
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);
  });
});
