// SYNTHETIC: a small OAuth 2.1 authorization server written for tests (not recorded from any real server). It follows the standards the MCP authorization spec builds on, strictly enough that a client
// cutting a corner fails: RFC 8414 metadata, RFC 7591 dynamic registration (public clients), the
// authorization code grant with PKCE S256 only, exact redirect URIs, `state` and `iss` on the redirect
// (RFC 9207), RFC 8707 resource indicators that become the token's audience, refresh tokens that rotate,
// and RFC 7662 introspection for the resource server. Its "login page" is `nextHuman`: the human whose
// browser the test is playing signs in and consents at once.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Client {
  readonly redirectUris: readonly string[];
}

interface Grant {
  readonly human: string;
  readonly clientId: string;
  readonly resource: string | undefined;
  readonly scope: string | undefined;
}

interface CodeGrant extends Grant {
  readonly redirectUri: string;
  readonly challenge: string;
}

interface AccessToken extends Grant {
  expiresAt: number;
  revoked: boolean;
}

export interface TestAuthorizationServer {
  readonly issuer: string;
  readonly introspectionEndpoint: string;
  /** The resource server's credentials for introspection. */
  readonly resourceServer: { readonly clientId: string; readonly clientSecret: string };
  /** Who signs in at the next authorization request. */
  nextHuman: string;
  /** Authorization requests answered with a code, refresh grants honoured. */
  readonly counts: { authorizations: number; refreshes: number; registrations: number };
  /** Issues a token directly (as if through another client), for the refusal tests. */
  issue(grant: { human: string; resource: string | undefined; scope?: string }): string;
  /** Makes a token expired (as if its lifetime had passed). */
  expire(accessToken: string): void;
  /** Revokes every access and refresh token of a human. */
  revokeAll(human: string): void;
  close(): Promise<void>;
}

const token = () => randomBytes(24).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/**
 * A synthetic OAuth 2.1 authorization server on 127.0.0.1 for tests of OAuth-protected MCP servers and
 * clients: metadata, dynamic registration, authorization code with PKCE (the human is `nextHuman`, signed in
 * at once), resource indicators as audience, rotating refresh tokens, introspection, and hooks to expire or
 * revoke tokens without waiting.
 */
export async function startTestAuthorizationServer(): Promise<TestAuthorizationServer> {
  const clients = new Map<string, Client>();
  const codes = new Map<string, CodeGrant>();
  const accessTokens = new Map<string, AccessToken>();
  const refreshTokens = new Map<string, Grant & { revoked: boolean }>();
  const resourceServer = { clientId: 'resource-server', clientSecret: token() };
  let issuer = '';

  const issueTokens = (grant: Grant) => {
    const access = token();
    const refresh = token();
    accessTokens.set(access, { ...grant, expiresAt: now() + 3600, revoked: false });
    refreshTokens.set(refresh, { ...grant, revoked: false });
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: refresh,
      ...(grant.scope === undefined ? {} : { scope: grant.scope }),
    };
  };

  const state: TestAuthorizationServer = {
    issuer: '',
    introspectionEndpoint: '',
    resourceServer,
    nextHuman: 'alice',
    counts: { authorizations: 0, refreshes: 0, registrations: 0 },
    issue: (grant) => issueTokens({ clientId: 'another-client', scope: grant.scope, ...grant }).access_token,
    expire(accessToken) {
      const entry = accessTokens.get(accessToken);
      if (entry !== undefined) entry.expiresAt = now() - 1;
    },
    revokeAll(human) {
      for (const entry of accessTokens.values()) if (entry.human === human) entry.revoked = true;
      for (const entry of refreshTokens.values()) if (entry.human === human) entry.revoked = true;
    },
    close: async () => undefined,
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', issuer);
    const route = `${request.method} ${url.pathname}`;
    if (route === 'GET /.well-known/oauth-authorization-server') {
      return json(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        introspection_endpoint: `${issuer}/introspect`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (route === 'POST /register') {
      const body = JSON.parse(await text(request)) as { redirect_uris?: unknown };
      const uris = body.redirect_uris;
      if (!Array.isArray(uris) || uris.length === 0 || !uris.every((uri) => typeof uri === 'string')) {
        return json(response, 400, { error: 'invalid_redirect_uri' });
      }
      const clientId = token();
      clients.set(clientId, { redirectUris: uris });
      state.counts.registrations += 1;
      return json(response, 201, {
        ...body,
        client_id: clientId,
        client_id_issued_at: now(),
        token_endpoint_auth_method: 'none',
      });
    }
    if (route === 'GET /authorize') {
      const q = url.searchParams;
      const client = clients.get(q.get('client_id') ?? '');
      const redirectUri = q.get('redirect_uri') ?? '';
      // Never redirect to a URI the client did not register (an open redirector leaks codes).
      if (client === undefined || !client.redirectUris.includes(redirectUri)) {
        return json(response, 400, { error: 'invalid_request', error_description: 'unknown client or redirect_uri' });
      }
      const back = new URL(redirectUri);
      const stateParam = q.get('state');
      if (stateParam !== null) back.searchParams.set('state', stateParam);
      back.searchParams.set('iss', issuer);
      const challenge = q.get('code_challenge');
      if (q.get('response_type') !== 'code' || challenge === null || q.get('code_challenge_method') !== 'S256') {
        back.searchParams.set('error', 'invalid_request');
      } else {
        const code = token();
        codes.set(code, {
          human: state.nextHuman,
          clientId: q.get('client_id') ?? '',
          redirectUri,
          challenge,
          resource: q.get('resource') ?? undefined,
          scope: q.get('scope') ?? undefined,
        });
        state.counts.authorizations += 1;
        back.searchParams.set('code', code);
      }
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    if (route === 'POST /token') {
      const form = new URLSearchParams(await text(request));
      const grantType = form.get('grant_type');
      if (grantType === 'authorization_code') {
        const code = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? ''); // one use only
        const verifier = form.get('code_verifier') ?? '';
        const expected = createHash('sha256').update(verifier).digest('base64url');
        if (
          code === undefined ||
          code.clientId !== form.get('client_id') ||
          code.redirectUri !== form.get('redirect_uri') ||
          code.challenge !== expected ||
          (form.get('resource') ?? undefined) !== code.resource
        ) {
          return json(response, 400, { error: 'invalid_grant' });
        }
        return json(response, 200, issueTokens(code));
      }
      if (grantType === 'refresh_token') {
        const presented = form.get('refresh_token') ?? '';
        const grant = refreshTokens.get(presented);
        if (grant === undefined || grant.revoked || grant.clientId !== form.get('client_id')) {
          return json(response, 400, { error: 'invalid_grant' });
        }
        refreshTokens.delete(presented); // rotation: a refresh token works once
        state.counts.refreshes += 1;
        const { revoked: _revoked, ...rest } = grant;
        return json(response, 200, issueTokens(rest));
      }
      return json(response, 400, { error: 'unsupported_grant_type' });
    }
    if (route === 'POST /introspect') {
      const expected = `Basic ${Buffer.from(`${resourceServer.clientId}:${resourceServer.clientSecret}`).toString('base64')}`;
      if (request.headers.authorization !== expected) return json(response, 401, { error: 'invalid_client' });
      const form = new URLSearchParams(await text(request));
      const entry = accessTokens.get(form.get('token') ?? '');
      if (entry === undefined || entry.revoked || entry.expiresAt <= now())
        return json(response, 200, { active: false });
      return json(response, 200, {
        active: true,
        sub: entry.human,
        client_id: entry.clientId,
        exp: entry.expiresAt,
        ...(entry.resource === undefined ? {} : { aud: entry.resource }),
        ...(entry.scope === undefined ? {} : { scope: entry.scope }),
      });
    }
    return json(response, 404, { error: 'not_found' });
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => json(response, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    issuer,
    introspectionEndpoint: `${issuer}/introspect`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

async function text(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
