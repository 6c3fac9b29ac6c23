import {
  auth,
  computeScopeUnion,
  extractWWWAuthenticateParams,
  type FetchLike,
  isStrictScopeSuperset,
} from '@modelcontextprotocol/client';
import { McpAuthorizationError } from '../errors/mcp-authorization-error.js';
import type { McpOAuthOptions } from './mcp-oauth-options.js';
import { StoredOAuthProvider } from './stored-oauth-provider.js';

interface Challenge {
  readonly resourceMetadataUrl?: URL | undefined;
  readonly scope?: string | undefined;
}

const DEFAULT_MAX_STEP_UPS = 2;

/**
 * A `fetch` for the MCP transport that carries the stored access token and, when the server answers 401
 * (no token, expired, revoked) or 403 `insufficient_scope`, runs the SDK's OAuth flow — discovery of the
 * protected resource and authorization server metadata, registration (client ID metadata document,
 * dynamic or pre-registered), PKCE, the resource indicator, refresh first — waits for the human through
 * the authorizer when a new authorization is needed, and sends the request again once. Requests that
 * meet a 401 together share one authorization.
 */
export function createOAuthFetch(options: McpOAuthOptions, serverUrl: URL, base: FetchLike = fetch): FetchLike {
  const provider = new StoredOAuthProvider(options, serverUrl);
  const maxStepUps = options.maxStepUps ?? DEFAULT_MAX_STEP_UPS;
  // What the server asked for (challenges); `options.scope` is the client metadata's scope, which the SDK
  // uses only when neither the challenge nor the resource metadata names any.
  let requestedScope: string | undefined;
  let running: Promise<void> | undefined;

  const authorizeOnce = async (challenge: Challenge, force: boolean): Promise<void> => {
    const common = {
      serverUrl,
      fetchFn: base,
      ...(challenge.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: challenge.resourceMetadataUrl }),
      ...(requestedScope === undefined ? {} : { scope: requestedScope }),
    };
    let result = await auth(provider, { ...common, forceReauthorization: force });
    if (result === 'REDIRECT') {
      const link = provider.takeAuthorizationUrl();
      if (link === undefined) throw new McpAuthorizationError(serverUrl.href, 'no authorization link was produced.');
      const answer = await options.authorizer.authorize(link);
      const error = answer.get('error');
      if (error !== null) {
        const description = answer.get('error_description');
        throw new McpAuthorizationError(
          serverUrl.href,
          `the authorization server answered "${error}"${description === null ? '' : ` (${description})`}.`,
        );
      }
      if (answer.get('state') !== (provider.expectedState() ?? null)) {
        throw new McpAuthorizationError(
          serverUrl.href,
          'the redirect back carries another `state` than the authorization request (a forged or stale redirect); nothing was exchanged.',
        );
      }
      const code = answer.get('code');
      if (code === null) throw new McpAuthorizationError(serverUrl.href, 'the redirect back carries no `code`.');
      const iss = answer.get('iss');
      result = await auth(provider, { ...common, authorizationCode: code, ...(iss === null ? {} : { iss }) });
    }
    if (result !== 'AUTHORIZED') throw new McpAuthorizationError(serverUrl.href, `the flow ended with ${result}.`);
  };

  /** One authorization at a time: a burst of requests rejected together waits for the same one. */
  const authorize = (challenge: Challenge, force: boolean): Promise<void> => {
    running ??= authorizeOnce(challenge, force).finally(() => {
      running = undefined;
    });
    return running;
  };

  return async (input, init) => {
    const send = async (): Promise<Response> => {
      const headers = new Headers(init?.headers);
      const tokens = await provider.tokens();
      if (tokens !== undefined) headers.set('authorization', `Bearer ${tokens.access_token}`);
      return base(input, { ...init, headers });
    };
    let response = await send();
    if (response.status === 401) {
      const challenge = extractWWWAuthenticateParams(response);
      await response.body?.cancel().catch(() => undefined);
      requestedScope = computeScopeUnion(requestedScope, challenge.scope);
      await authorize(challenge, false);
      response = await send();
      if (response.status === 401) {
        await response.body?.cancel().catch(() => undefined);
        throw new McpAuthorizationError(
          serverUrl.href,
          'the server refuses the token the authorization server just issued (check that it accepts tokens for this resource from this authorization server).',
        );
      }
    }
    for (let stepUps = 0; response.status === 403 && stepUps < maxStepUps; stepUps += 1) {
      const challenge = extractWWWAuthenticateParams(response);
      if (challenge.error !== 'insufficient_scope') break;
      await response.body?.cancel().catch(() => undefined);
      const granted = (await provider.tokens())?.scope;
      requestedScope = computeScopeUnion(requestedScope, granted, challenge.scope);
      // A refresh cannot widen the grant: ask the human again when the server wants scopes not yet held.
      await authorize(challenge, isStrictScopeSuperset(requestedScope ?? '', granted));
      response = await send();
    }
    return response;
  };
}
