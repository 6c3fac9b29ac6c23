import type { AuthProvider, Client, FetchLike, OAuthClientProvider, Transport } from '@modelcontextprotocol/client';
import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { InvalidMcpServerError } from './errors/invalid-mcp-server-error.js';
import type { McpOAuthOptions } from './oauth/mcp-oauth-options.js';
import { createOAuthFetch } from './oauth/oauth-fetch.js';

/** A server started as a child process, spoken to over its stdin/stdout. */
export interface McpStdioServer {
  readonly command: string;
  readonly args?: readonly string[];
  /**
   * Variables for the child on top of the SDK's safe defaults (PATH, HOME, USER…): the rest of this
   * process's environment, your API keys included, is never passed on.
   */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** What to do with the server's stderr (default `inherit`). */
  readonly stderr?: 'inherit' | 'ignore' | 'pipe';
}

/** A server reached over HTTP. */
export interface McpHttpServer {
  readonly url: string | URL;
  /** Sent with every request, e.g. `Authorization`. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * `streamable-http` (the current transport), `sse` (the older HTTP+SSE transport) or `auto` (default):
   * Streamable HTTP first, then HTTP+SSE when the server refuses it, as the specification recommends.
   */
  readonly transport?: 'auto' | 'streamable-http' | 'sse';
  /**
   * OAuth 2.1 with a human in the loop (authorization code + PKCE): the connection waits while the human
   * authorizes through `oauth.authorizer`, keeps the tokens in `oauth.store`, refreshes them, and asks
   * for more scope when the server requires it.
   */
  readonly oauth?: McpOAuthOptions;
  /**
   * Any of the SDK's auth providers instead, for flows without a human (e.g. its
   * `ClientCredentialsProvider` or `PrivateKeyJwtProvider`), or `{ token: async () => key }`.
   */
  readonly authProvider?: AuthProvider | OAuthClientProvider;
}

export type McpServerSpec = McpStdioServer | McpHttpServer;

/** Connects the client over the transport the spec names (with the Streamable HTTP → SSE fallback). */
export async function connectTransport(client: Client, spec: McpServerSpec, field: string): Promise<Transport> {
  if ('command' in spec) {
    if (typeof spec.command !== 'string' || spec.command === '') {
      throw new InvalidMcpServerError(field, '`command` must be the executable that starts the server.');
    }
    const transport = new StdioClientTransport({
      command: spec.command,
      args: [...(spec.args ?? [])],
      env: { ...getDefaultEnvironment(), ...spec.env },
      ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
      stderr: spec.stderr ?? 'inherit',
    });
    await connectOrClose(client, transport);
    return transport;
  }
  const url = parseUrl(spec.url, field);
  if (spec.oauth !== undefined && spec.authProvider !== undefined) {
    throw new InvalidMcpServerError(field, 'give either `oauth` or `authProvider`, not both.');
  }
  // An authorization that failed is not a server that speaks the older transport: no fallback then.
  let authorizationFailure: { readonly error: unknown } | undefined;
  const oauthFetch = spec.oauth === undefined ? undefined : createOAuthFetch(spec.oauth, url);
  const http: HttpOptions = {
    requestInit: spec.headers === undefined ? {} : { headers: { ...spec.headers } },
    ...(oauthFetch === undefined
      ? {}
      : {
          fetch: (input: string | URL, init?: RequestInit) =>
            oauthFetch(input, init).catch((error: unknown) => {
              authorizationFailure = { error };
              throw error;
            }),
        }),
    ...(spec.authProvider === undefined ? {} : { authProvider: spec.authProvider }),
  };
  const mode = spec.transport ?? 'auto';
  if (mode === 'sse') return connectSse(client, url, http);
  const streamable = new StreamableHTTPClientTransport(url, http);
  try {
    await client.connect(streamable);
    return streamable;
  } catch (error) {
    if (authorizationFailure !== undefined) {
      await streamable.close().catch(() => undefined);
      throw authorizationFailure.error;
    }
    if (mode === 'streamable-http') throw error;
    // A server that only speaks the older transport answers the Streamable HTTP POST with a 4xx.
    await streamable.close().catch(() => undefined);
    return connectSse(client, url, http);
  }
}

/** What both HTTP transports take: headers, and the OAuth fetch or the SDK auth provider. */
interface HttpOptions {
  readonly requestInit: RequestInit;
  readonly fetch?: FetchLike;
  readonly authProvider?: AuthProvider | OAuthClientProvider;
}

async function connectSse(client: Client, url: URL, http: HttpOptions): Promise<Transport> {
  const transport = new SSEClientTransport(url, http);
  await connectOrClose(client, transport);
  return transport;
}

function parseUrl(value: string | URL, field: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new InvalidMcpServerError(field, `\`url\` ${JSON.stringify(String(value))} is not a URL.`);
  }
}

/** A failed handshake must not leave a child process or a stream behind. */
async function connectOrClose(client: Client, transport: Transport): Promise<void> {
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw error;
  }
}
