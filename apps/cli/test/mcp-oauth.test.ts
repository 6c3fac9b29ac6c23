import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCatalogue, createSession, defineTool } from '@toolcircuit/core';
import {
  bearerAuthenticate,
  type HttpCatalogueServer,
  introspectToken,
  serveCatalogue,
  serveCatalogueHttp,
} from '@toolcircuit/mcp';
import { startTestAuthorizationServer, type TestAuthorizationServer } from '@toolcircuit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin, startBin } from './support/cli-process.js';

// `toolcircuit mcp import <url> --oauth` against a catalogue served behind OAuth, with the synthetic
// authorization server of @toolcircuit/testing on loopback. The test plays the human: it reads the
// link the CLI prints on stderr, opens it, and follows the redirect to the CLI's loopback port.

const catalogue = createCatalogue([
  defineTool({
    name: 'list_notes',
    description: 'Lists the notes of the signed-in human.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    right: 'notes:read',
    run: () => [],
  }),
]);

describe('toolcircuit mcp import --oauth', () => {
  let as: TestAuthorizationServer;
  let http: HttpCatalogueServer;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'toolcircuit-cli-oauth-'));
    as = await startTestAuthorizationServer();
    let authenticate: ((request: Request) => ReturnType<ReturnType<typeof bearerAuthenticate>>) | undefined;
    http = await serveCatalogueHttp(serveCatalogue(catalogue, { sessionFor: ({ session }) => session }), {
      authenticateSession: (request) => authenticate?.(request),
      protectedResource: { authorizationServers: [as.issuer] },
    });
    authenticate = bearerAuthenticate({
      resource: http.url,
      verifyToken: introspectToken({ endpoint: as.introspectionEndpoint, ...as.resourceServer }),
      sessionFor: ({ subject }) => createSession({ id: `mcp-${subject}`, humanId: subject, rights: ['notes:read'] }),
    });
  });
  afterAll(async () => {
    await http?.close();
    await as?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the link, waits for the browser on 127.0.0.1, imports, and keeps the tokens for the next run', async () => {
    const tokens = join(dir, 'tokens.json');
    const args = [
      'mcp',
      'import',
      http.url.href,
      '--name',
      'notes',
      '--oauth',
      '--oauth-tokens',
      tokens,
      '-o',
      'notes.json',
    ];
    const cli = startBin(args, { cwd: dir });
    const link = await new Promise<URL>((resolve, reject) => {
      let seen = '';
      cli.child.stderr?.on('data', (chunk: string) => {
        seen += chunk;
        const match = /(http:\/\/127\.0\.0\.1:\d+\/authorize\S+)/.exec(seen);
        if (match?.[1] !== undefined) resolve(new URL(match[1]));
      });
      cli.done.then((result) => reject(new Error(`ended before printing a link: ${result.stderr}`)));
    });
    expect(link.origin).toBe(as.issuer);
    expect(link.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    // The human's browser: the authorization server signs them in and redirects to the CLI.
    const answer = await fetch(link, { redirect: 'manual' });
    await (await fetch(answer.headers.get('location') ?? '')).text();
    const result = await cli.done;
    expect(result.stderr).toContain('Open this link');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('wrote 1 tool(s) of "notes"');
    expect(JSON.parse(await readFile(join(dir, 'notes.json'), 'utf8')).tools[0].name).toBe('list_notes');
    expect((await stat(tokens)).mode & 0o777).toBe(0o600);

    // The next import finds the tokens: no link, no new authorization.
    const before = as.counts.authorizations;
    const again = await runBin(args, { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('Open this link');
    expect(as.counts.authorizations).toBe(before);
  }, 60_000);

  it('--oauth on a server started as a command is a usage error', async () => {
    const result = await runBin(['mcp', 'import', '--oauth', '--', process.execPath, '-e', '0'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--oauth applies to a server reached by URL/);
  });
});
