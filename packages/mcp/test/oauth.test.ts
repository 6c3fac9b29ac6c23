import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createCatalogue, createSession, defineTool, executeCall, type Session } from '@toolcircuit/core';
import { createRunServer } from '@toolcircuit/server';
import { createMemoryStore } from '@toolcircuit/stores';
import { createScriptedModel, startTestAuthorizationServer, type TestAuthorizationServer } from '@toolcircuit/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  bearerAuthenticate,
  connectMcpServer,
  FileOAuthStore,
  type HttpCatalogueServer,
  InMemoryOAuthStore,
  introspectToken,
  type LoopbackAuthorizer,
  McpAuthorizationError,
  type McpConnection,
  type McpOAuthStore,
  serveCatalogue,
  serveCatalogueHttp,
  startLoopbackAuthorizer,
} from '../src/index.js';

// OAuth both ways over loopback: a served catalogue protected by a synthetic authorization server
// (startTestAuthorizationServer of @toolcircuit/testing), imported by connectMcpServer through the real
// authorization code flow, with the loopback authorizer a CLI uses. The test plays the human's browser: it
// opens the printed link and follows the authorization server's redirect back to the loopback port.

const catalogue = createCatalogue([
  defineTool({
    name: 'whoami',
    description: 'Says which human the server runs this call for.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    right: 'notes:read',
    run: (_input, context) => `running for ${context.session.humanId}`,
  }),
]);

/** The application's own records: which rights each human holds (never from the token's client). */
const RIGHTS: Record<string, readonly string[]> = { alice: ['notes:read'], bob: ['notes:read'] };

let as: TestAuthorizationServer;
let http: HttpCatalogueServer;
let authenticate: (request: Request) => Promise<Session | undefined>;
const browsed: URL[] = [];

/** The human's browser: opens the link; the authorization server signs `nextHuman` in and redirects back. */
async function browser(link: URL): Promise<void> {
  browsed.push(link);
  const answer = await fetch(link, { redirect: 'manual' });
  const location = answer.headers.get('location');
  if (location === null) throw new Error(`no redirect from the authorization server (${answer.status})`);
  await (await fetch(location)).text();
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close().catch(() => undefined);
});

async function authorizer(): Promise<LoopbackAuthorizer> {
  const started = await startLoopbackAuthorizer({ onLink: browser, timeoutMs: 10_000 });
  open.push(started);
  return started;
}

async function importAs(human: string, store: McpOAuthStore = new InMemoryOAuthStore()): Promise<McpConnection> {
  as.nextHuman = human;
  const connection = await connectMcpServer({
    name: 'notes',
    server: { url: http.url, oauth: { authorizer: await authorizer(), store, clientName: 'oauth test' } },
  });
  open.push(connection);
  return connection;
}

async function whoami(connection: McpConnection): Promise<string> {
  const outcome = await executeCall(
    { type: 'tool_call', id: 'call-1', name: 'whoami', input: {} },
    {
      catalogue: connection.catalogue(),
      session: createSession({ id: 'importer', humanId: 'operator', rights: ['mcp:notes'] }),
    },
  );
  expect(outcome.verdict.kind).toBe('executed');
  return JSON.stringify(outcome.result.content);
}

/** A raw MCP request with a given bearer token (and session id), as a client that cuts corners would send. */
async function post(token: string | undefined, body: unknown, sessionId?: string): Promise<Response> {
  return fetch(http.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }),
    },
    body: JSON.stringify(body),
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

beforeAll(async () => {
  as = await startTestAuthorizationServer();
  http = await serveCatalogueHttp(serveCatalogue(catalogue, { sessionFor: ({ session }) => session }), {
    authenticateSession: (request) => authenticate(request),
    protectedResource: { authorizationServers: [as.issuer], resourceName: 'notes' },
  });
  // The resource identifier is the served URL, known once the server listens.
  authenticate = bearerAuthenticate({
    resource: http.url,
    verifyToken: introspectToken({ endpoint: as.introspectionEndpoint, ...as.resourceServer }),
    sessionFor: ({ subject }) =>
      RIGHTS[subject] === undefined
        ? undefined
        : createSession({ id: `mcp-${subject}`, humanId: subject, rights: RIGHTS[subject] }),
  });
});
afterAll(async () => {
  await http?.close();
  await as?.close();
});

describe('serving with OAuth: protected resource metadata and bearer tokens', () => {
  it('publishes RFC 9728 metadata and answers 401 with where to find it', async () => {
    const metadataUrl = new URL('/.well-known/oauth-protected-resource/mcp', http.url);
    const metadata = await (await fetch(metadataUrl)).json();
    expect(metadata).toEqual({
      resource: http.url.href,
      authorization_servers: [as.issuer],
      bearer_methods_supported: ['header'],
      resource_name: 'notes',
    });
    const anonymous = await post(undefined, INITIALIZE);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl.href}"`);
    const forged = await post('forged', INITIALIZE);
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${metadataUrl.href}", error="invalid_token"`,
    );
  });

  it('refuses a token issued for another resource (wrong audience)', async () => {
    const elsewhere = as.issue({ human: 'alice', resource: 'http://127.0.0.1:1/other-mcp' });
    expect((await post(elsewhere, INITIALIZE)).status).toBe(401);
    const unbound = as.issue({ human: 'alice', resource: undefined });
    expect((await post(unbound, INITIALIZE)).status).toBe(401);
    const right = as.issue({ human: 'alice', resource: http.url.href });
    expect((await post(right, INITIALIZE)).status).toBe(200);
  });

  it('refuses expired and revoked tokens', async () => {
    const expired = as.issue({ human: 'carol', resource: http.url.href });
    as.expire(expired);
    expect((await post(expired, INITIALIZE)).status).toBe(401);
    const revoked = as.issue({ human: 'dave', resource: http.url.href });
    as.revokeAll('dave');
    expect((await post(revoked, INITIALIZE)).status).toBe(401);
  });

  it("a token for another human cannot use the first human's MCP session (404)", async () => {
    const alice = as.issue({ human: 'alice', resource: http.url.href });
    const opened = await post(alice, INITIALIZE);
    const sessionId = opened.headers.get('mcp-session-id');
    expect(sessionId).toBeTruthy();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const bob = as.issue({ human: 'bob', resource: http.url.href });
    expect((await post(bob, list, sessionId ?? '')).status).toBe(404);
    // Alice's session stays hers, with a refreshed (different) token too: it is bound to the human.
    const aliceAgain = as.issue({ human: 'alice', resource: http.url.href });
    expect((await post(aliceAgain, list, sessionId ?? '')).status).toBe(200);
  });

  it('one authenticate serves the MCP server and the run server', async () => {
    const runServer = createRunServer({
      store: createMemoryStore(),
      model: createScriptedModel([]),
      catalogue,
      authenticate,
    });
    const approvals = (token?: string) =>
      runServer.handle(
        new Request(`${new URL(http.url).origin}/approvals`, {
          headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        }),
      );
    const alice = as.issue({ human: 'alice', resource: http.url.href });
    expect((await approvals(alice)).status).toBe(200);
    expect((await approvals()).status).toBe(401);
    expect((await approvals(as.issue({ human: 'alice', resource: 'http://127.0.0.1:1/other' }))).status).toBe(401);
    expect((await post(alice, INITIALIZE)).status).toBe(200);
  });
});

describe('importing with OAuth: connectMcpServer({ server: { url, oauth } })', () => {
  it('runs the whole flow: discovery, registration, PKCE, resource indicator, then calls as the human', async () => {
    const before = { ...as.counts };
    browsed.length = 0;
    const connection = await importAs('alice');
    expect(await whoami(connection)).toContain('running for alice');
    expect(as.counts.registrations - before.registrations).toBe(1);
    expect(as.counts.authorizations - before.authorizations).toBe(1);
    expect(browsed).toHaveLength(1);
    const link = browsed[0] as URL;
    expect(link.origin).toBe(as.issuer);
    expect(link.searchParams.get('code_challenge_method')).toBe('S256');
    expect(link.searchParams.get('resource')).toBe(http.url.href);
    expect(link.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(link.searchParams.get('state')).toBeTruthy();
  });

  it('refreshes an expired access token without asking the human again', async () => {
    const store = new InMemoryOAuthStore();
    const connection = await importAs('alice', store);
    const key = http.url.href;
    const first = store.get(key)?.tokens?.access_token ?? '';
    as.expire(first);
    const before = { ...as.counts };
    expect(await whoami(connection)).toContain('running for alice');
    expect(as.counts.refreshes - before.refreshes).toBe(1);
    expect(as.counts.authorizations - before.authorizations).toBe(0);
    expect(store.get(key)?.tokens?.access_token).not.toBe(first);
  });

  it('after revocation, asks the human again (the refresh token is refused too)', async () => {
    const connection = await importAs('bob');
    as.revokeAll('bob');
    const before = { ...as.counts };
    expect(await whoami(connection)).toContain('running for bob');
    expect(as.counts.authorizations - before.authorizations).toBe(1);
  });

  it('keeps tokens in a file store (owner-only) so a new process needs no new authorization', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolcircuit-oauth-'));
    open.push({ close: () => rm(dir, { recursive: true, force: true }) });
    const file = join(dir, 'tokens.json');
    await (await importAs('alice', new FileOAuthStore(file))).close();
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))[http.url.href].tokens.access_token).toEqual(expect.any(String));
    const before = { ...as.counts };
    const again = await importAs('alice', new FileOAuthStore(file));
    expect(await whoami(again)).toContain('running for alice');
    expect(as.counts.authorizations - before.authorizations).toBe(0);
    expect(as.counts.registrations - before.registrations).toBe(0);
  });

  it('registers again when the loopback port (the redirect URI) changed since the stored registration', async () => {
    const store = new InMemoryOAuthStore();
    const first = await importAs('alice', store);
    const registered = store.get(http.url.href)?.client?.client_id;
    // Closed before the revocation: a live connection's 2026-07-28 listen stream would meet the revoked token
    // and authorize again on its own, as it should, which is not what this test is about.
    await first.close();
    as.revokeAll('alice');
    const before = { ...as.counts };
    const again = await importAs('alice', store); // a new authorizer: another port
    expect(await whoami(again)).toContain('running for alice');
    expect(as.counts.registrations - before.registrations).toBe(1);
    expect(as.counts.authorizations - before.authorizations).toBe(1);
    expect(store.get(http.url.href)?.client?.client_id).not.toBe(registered);
  });

  it('a human who refuses, or a redirect with another state, fails with McpAuthorizationError', async () => {
    const refusing = await startLoopbackAuthorizer({
      onLink: async (link) => {
        const back = new URL(link.searchParams.get('redirect_uri') ?? '');
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('state', link.searchParams.get('state') ?? '');
        await (await fetch(back)).text();
      },
    });
    open.push(refusing);
    const refused = connectMcpServer({ name: 'notes', server: { url: http.url, oauth: { authorizer: refusing } } });
    await expect(refused).rejects.toThrow(McpAuthorizationError);
    await expect(refused).rejects.toThrow(/access_denied/);

    const forged = await startLoopbackAuthorizer({
      onLink: async (link) => {
        const answer = await fetch(link, { redirect: 'manual' });
        const back = new URL(answer.headers.get('location') ?? '');
        back.searchParams.set('state', 'forged');
        await (await fetch(back)).text();
      },
    });
    open.push(forged);
    const mismatched = connectMcpServer({ name: 'notes', server: { url: http.url, oauth: { authorizer: forged } } });
    await expect(mismatched).rejects.toThrow(/another `state`/);
  });

  it('without OAuth the importer gets the 401 (and no tools)', async () => {
    const client = new Client({ name: 'plain', version: '1' });
    await expect(client.connect(new StreamableHTTPClientTransport(http.url))).rejects.toThrow();
  });
});
