import type { Session } from '@toolcircuit/core';

/** What the authorization server says about an access token (from introspection or a verified JWT). */
export interface VerifiedToken {
  /** `false` for a token the authorization server no longer honours (revoked, expired). */
  readonly active: boolean;
  /** The human the token was issued to (`sub`). */
  readonly subject?: string;
  /** The resources the token is for (`aud`, from the resource indicator the client asked with). */
  readonly audience?: string | readonly string[];
  /** Expiry, in seconds since the epoch (`exp`). */
  readonly expiresAt?: number;
  readonly scopes?: readonly string[];
  readonly clientId?: string;
}

export interface BearerAuthenticateOptions {
  /**
   * This server's resource identifier (its canonical URL, as published in its protected resource
   * metadata): a token whose audience does not name it was issued for another server and is refused.
   */
  readonly resource: string | URL;
  /** Asks the authorization server about a token (e.g. {@link introspectToken}); `undefined` for an unknown token. */
  readonly verifyToken: (token: string) => VerifiedToken | undefined | Promise<VerifiedToken | undefined>;
  /**
   * The session of the token's human: rights and confirmations from YOUR records, keyed by the verified
   * subject (never by anything the client or the model sent). `undefined` refuses the request.
   */
  readonly sessionFor: (
    token: VerifiedToken & { readonly subject: string },
  ) => Session | undefined | Promise<Session | undefined>;
  /** Seconds since the epoch (default the clock): an expired token is refused even if the server says active. */
  readonly now?: () => number;
}

/**
 * `authenticate(request) → Session | undefined` from an OAuth bearer token: the same function serves the
 * MCP server (`serveCatalogueHttp({ authenticateSession })`) and `@toolcircuit/server`'s
 * `createRunServer({ authenticate })`. Refused (`undefined`, answered 401): no bearer token, a token the
 * authorization server does not know or has revoked, an expired one, one without a subject, and one whose
 * audience is another resource.
 */
export function bearerAuthenticate(
  options: BearerAuthenticateOptions,
): (request: Request) => Promise<Session | undefined> {
  const resource = canonical(String(options.resource));
  const now = options.now ?? (() => Date.now() / 1000);
  return async (request) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
    const token = match?.[1];
    if (token === undefined) return undefined;
    const verified = await options.verifyToken(token);
    if (verified === undefined || !verified.active || verified.subject === undefined) return undefined;
    if (verified.expiresAt !== undefined && verified.expiresAt <= now()) return undefined;
    const audience = verified.audience === undefined ? [] : [verified.audience].flat();
    if (!audience.some((entry) => canonical(entry) === resource)) return undefined;
    return options.sessionFor({ ...verified, subject: verified.subject });
  };
}

export interface IntrospectTokenOptions {
  /** The authorization server's RFC 7662 introspection endpoint. */
  readonly endpoint: string | URL;
  /** This resource server's credentials at the authorization server (sent with HTTP Basic). */
  readonly clientId: string;
  readonly clientSecret: string;
  readonly fetch?: typeof fetch;
}

/** A `verifyToken` that asks the authorization server (RFC 7662 token introspection). */
export function introspectToken(
  options: IntrospectTokenOptions,
): (token: string) => Promise<VerifiedToken | undefined> {
  const basic = Buffer.from(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  ).toString('base64');
  const send = options.fetch ?? fetch;
  return async (token) => {
    const response = await send(options.endpoint, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }),
    });
    if (!response.ok) throw new Error(`token introspection answered ${response.status}`);
    const body = (await response.json()) as Record<string, unknown>;
    if (body.active !== true) return { active: false };
    return {
      active: true,
      ...(typeof body.sub === 'string' ? { subject: body.sub } : {}),
      ...(typeof body.aud === 'string' || Array.isArray(body.aud) ? { audience: body.aud as string | string[] } : {}),
      ...(typeof body.exp === 'number' ? { expiresAt: body.exp } : {}),
      ...(typeof body.scope === 'string' ? { scopes: body.scope.split(' ').filter(Boolean) } : {}),
      ...(typeof body.client_id === 'string' ? { clientId: body.client_id } : {}),
    };
  };
}

/** URLs compared as the resource indicator spec says: scheme and host case-insensitive, no fragment. */
function canonical(value: string): string {
  try {
    const url = new URL(value);
    url.hash = '';
    return url.href.replace(/\/$/, '');
  } catch {
    return value;
  }
}
