// The run server unchanged under Hono: one catch-all route hands Hono's request to `handle`, and a whole
// approval round trip (start, the inbox, the decision, the run's events) goes through Hono's own fetch.
import { textTurn } from '@toolcircuit/testing';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { json, payBob, serve, tempStoreFile } from './support/server-world.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('under Hono', () => {
  it("app.all('*', c => server.handle(c.req.raw)) serves the round trip: start, approvals, decision, events, errors", async () => {
    const temp = tempStoreFile();
    cleanups.push(temp.remove);
    const executions: unknown[] = [];
    const served = await serve(temp.file, [payBob(), textTurn('Sent.')], executions);
    cleanups.push(() => served.close());
    const app = new Hono();
    app.all('*', (c) => served.handler.handle(c.req.raw));
    const call = (path: string, init: RequestInit = {}, token: string | null = 'marie-laptop') => {
      const headers = new Headers(init.headers);
      if (token !== null) headers.set('authorization', `Bearer ${token}`);
      if (init.body !== undefined) headers.set('content-type', 'application/json');
      return app.fetch(new Request(`http://inbox.example${path}`, { ...init, headers }));
    };

    const started = await call('/runs', { method: 'POST', body: JSON.stringify({ prompt: 'Pay 10 to Bob.' }) });
    expect(started.status).toBe(201);
    const { run } = await json(started);
    expect(run.status).toBe('paused');
    const [approval] = (await json(await call('/approvals', {}, 'marie-phone'))).approvals;
    expect(approval).toMatchObject({ runId: run.id, callId: 'pay', input: { amount: 10, to: 'bob' } });

    const decided = await call(`/runs/${run.id}/decisions`, {
      method: 'POST',
      body: JSON.stringify({ decisions: [{ callId: 'pay', approved: true, inputDigest: approval.inputDigest }] }),
    });
    expect(decided.status).toBe(200);
    expect((await json(decided)).run).toMatchObject({ status: 'completed', text: 'Sent.' });
    expect(executions).toEqual([{ amount: 10, to: 'bob' }]);

    // The run's events stream through Hono as they are, ending with the run's status.
    const events = await call(`/runs/${run.id}/events`);
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await events.text();
    expect(text).toContain('event: call-verdict');
    expect(text).toMatch(/event: end\ndata: \{"runId":"[^"]+","status":"completed"\}/);

    // The server's own errors, not Hono's: JSON with a stable code.
    const anonymous = await call('/approvals', {}, null);
    expect(anonymous.status).toBe(401);
    expect((await json(anonymous)).error.code).toBe('unauthenticated');
    const crossSite = await call('/runs', {
      method: 'POST',
      body: JSON.stringify({ prompt: 'Pay 10 to Bob.' }),
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(crossSite.status).toBe(403);
    expect((await json(crossSite)).error.code).toBe('forbidden_origin');
  });
});
