import { createMemoryStore } from '@toolcircuit/stores';
import { createScriptedModel } from '@toolcircuit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createRunServer,
  InvalidServerOptionError,
  MissingServerOptionError,
  type RunServerOptions,
} from '../src/index.js';
import { catalogue, json, payBob, post, type Served, serve, tempStoreFile } from './support/server-world.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function served(extra?: Parameters<typeof serve>[3]): Promise<Served & { executions: unknown[] }> {
  const temp = tempStoreFile();
  cleanups.push(temp.remove);
  const executions: unknown[] = [];
  const server = await serve(temp.file, [payBob(), payBob(), payBob()], executions, extra);
  cleanups.push(() => server.close());
  return { ...server, executions };
}

async function expectError(response: Response, status: number, code: string): Promise<string> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = await json(response);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  return body.error.message;
}

describe('run server: bad requests', () => {
  it('401 on every route without a session the application accepts', async () => {
    const server = await served();
    await expectError(await server.call('/approvals', { token: null }), 401, 'unauthenticated');
    await expectError(await server.call('/approvals', { token: 'forged' }), 401, 'unauthenticated');
    await expectError(
      await post({ ...server, call: (p, i) => server.call(p, { ...i, token: null }) }, '/runs', { prompt: 'Pay.' }),
      401,
      'unauthenticated',
    );
    await expectError(await server.call('/runs/anything', { token: null }), 401, 'unauthenticated');
    expect((await json(await server.call('/approvals'))).approvals).toEqual([]);
  });

  it('400 naming the problem for malformed JSON and for a body of the wrong shape', async () => {
    const server = await served();
    const message = await expectError(
      await server.call('/runs', { method: 'POST', body: '{"prompt": "Pay 10 to Bob.",' }),
      400,
      'invalid_json',
    );
    expect(message).toMatch(/not valid JSON/);
    expect(await expectError(await post(server, '/runs', { prompt: 5 }), 400, 'invalid_body')).toMatch(/"prompt"/);
    expect(
      await expectError(
        await post(server, '/runs', { messages: [{ role: 'tool', content: 'sent' }] }),
        400,
        'invalid_body',
      ),
    ).toMatch(/role/);
    expect(
      await expectError(
        await post(server, '/runs/x/decisions', { decisions: [{ callId: 'pay', approved: true }] }),
        400,
        'invalid_body',
      ),
    ).toMatch(/inputDigest/);
    expect(server.executions).toEqual([]);
  });

  it('413 for a body over the limit, declared or streamed', async () => {
    const server = await served({ maxBodyBytes: 1000 });
    const big = JSON.stringify({ prompt: 'x'.repeat(5000) });
    await expectError(await server.call('/runs', { method: 'POST', body: big }), 413, 'payload_too_large');
    const chunks = new TextEncoder().encode(big);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < chunks.length; at += 500) controller.enqueue(chunks.slice(at, at + 500));
        controller.close();
      },
    });
    await expectError(
      await server.call('/runs', { method: 'POST', body: streamed, duplex: 'half' } as RequestInit),
      413,
      'payload_too_large',
    );
    // Under the limit, the same server starts runs.
    expect((await post(server, '/runs', { prompt: 'Pay 10 to Bob.' })).status).toBe(201);
  });

  it('415 for a state-changing request that is not JSON (what a cross-site form sends)', async () => {
    const server = await served();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      await expectError(
        await server.call('/runs', {
          method: 'POST',
          body: '{"prompt":"Pay 10 to Bob."}',
          headers: { 'content-type': type },
        }),
        415,
        'unsupported_media_type',
      );
    }
    expect((await json(await server.call('/approvals'))).approvals).toEqual([]);
  });

  it('404 for an unknown route or run, 405 with Allow for a known route and another method', async () => {
    const server = await served();
    await expectError(await server.call('/nothing-here'), 404, 'not_found');
    await expectError(await server.call('/runs/a/b/c'), 404, 'not_found');
    await expectError(await server.call('/runs/no-such-run'), 404, 'run_not_found');
    await expectError(await post(server, '/runs/no-such-run/cancel', {}), 404, 'run_not_found');
    const wrong = await server.call('/runs');
    await expectError(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('POST');
    const deleted = await server.call('/runs/x', { method: 'DELETE' });
    await expectError(deleted, 405, 'method_not_allowed');
    expect(deleted.headers.get('allow')).toBe('GET');
    await expectError(await server.call('/approvals', { method: 'POST', body: '{}' }), 405, 'method_not_allowed');
  });

  it('403 for a state-changing request from a page of another origin; the own origin and allowed origins pass', async () => {
    const server = await served();
    const from = (origin: string) =>
      server.call('/runs', { method: 'POST', body: '{"prompt":"Pay 10 to Bob."}', headers: { origin } });
    await expectError(await from('https://evil.example'), 403, 'forbidden_origin');
    await expectError(await from('null'), 403, 'forbidden_origin');
    expect((await json(await server.call('/approvals'))).approvals).toEqual([]);
    expect((await from(server.base)).status).toBe(201);

    const app = await served({ allowedOrigins: ['https://app.example'] });
    const fromApp = (origin: string) =>
      app.call('/runs', { method: 'POST', body: '{"prompt":"Pay 10 to Bob."}', headers: { origin } });
    expect((await fromApp('https://app.example')).status).toBe(201);
    await expectError(await fromApp(app.base), 403, 'forbidden_origin');
    // Reading is not state-changing: no origin check.
    expect((await app.call('/approvals', { headers: { origin: 'https://evil.example' } })).status).toBe(200);
  });

  it('500 with a generic message when the application fails; the details go to onError only', async () => {
    const reported: unknown[] = [];
    const server = await served({
      authenticate: () => {
        throw new Error('auth database password rejected');
      },
      onError: (error) => reported.push(error),
    });
    const message = await expectError(await server.call('/approvals'), 500, 'internal_error');
    expect(message).not.toMatch(/password/);
    expect(reported).toEqual([expect.objectContaining({ message: 'auth database password rejected' })]);
  });

  it('typed configuration errors name the option to fix', () => {
    const base: RunServerOptions = {
      store: createMemoryStore(),
      model: createScriptedModel([]),
      catalogue: catalogue([]),
      authenticate: () => undefined,
    };
    const field = (options: unknown) => {
      try {
        createRunServer(options as RunServerOptions);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(field({ ...base, store: undefined })).toMatchObject({ field: 'store', code: 'missing_server_option' });
    expect(field({ ...base, store: undefined })).toBeInstanceOf(MissingServerOptionError);
    expect(field({ ...base, authenticate: undefined })).toMatchObject({ field: 'authenticate' });
    expect(field({ ...base, model: undefined })).toMatchObject({ field: 'model' });
    expect(field({ ...base, catalogue: undefined })).toMatchObject({ field: 'catalogue' });
    expect(field({ ...base, maxBodyBytes: 0 })).toBeInstanceOf(InvalidServerOptionError);
    expect(field({ ...base, onError: 'log' })).toMatchObject({ field: 'onError' });
    expect(field({ ...base, allowedOrigins: ['https://app.example/path'] })).toMatchObject({ field: 'allowedOrigins' });
    expect(field(base)).toBeUndefined();
  });
});
