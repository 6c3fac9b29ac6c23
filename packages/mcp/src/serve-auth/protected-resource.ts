/** RFC 9728 protected resource metadata for a served catalogue (`serveCatalogueHttp({ protectedResource })`). */
export interface ProtectedResourceOptions {
  /** The authorization servers that issue tokens for this server (their issuer URLs). */
  readonly authorizationServers: readonly (string | URL)[];
  /** Scopes a client may ask for. */
  readonly scopesSupported?: readonly string[];
  /**
   * The resource identifier; default the URL the server is bound to (`http://127.0.0.1:PORT/mcp`). Give the
   * public URL behind a proxy: clients refuse metadata that names another resource than the URL they use.
   * Tokens must be issued for exactly this.
   */
  readonly resource?: string | URL;
  readonly resourceName?: string;
}

/** The metadata document for `resource`. */
export function protectedResourceMetadata(
  options: ProtectedResourceOptions,
  resource: string,
): Record<string, unknown> {
  return {
    resource,
    authorization_servers: options.authorizationServers.map(String),
    bearer_methods_supported: ['header'],
    ...(options.scopesSupported === undefined ? {} : { scopes_supported: [...options.scopesSupported] }),
    ...(options.resourceName === undefined ? {} : { resource_name: options.resourceName }),
  };
}

/**
 * The well-known path of the metadata for a resource at `path` (RFC 9728 §3.1: the path is appended), e.g.
 * `/.well-known/oauth-protected-resource/mcp`.
 */
export function protectedResourcePath(path: string): string {
  return `/.well-known/oauth-protected-resource${path === '/' ? '' : path}`;
}

/** `WWW-Authenticate` for a 401: where the metadata is, and `invalid_token` when a token was presented. */
export function bearerChallenge(metadataUrl: string, tokenPresented: boolean, scope?: readonly string[]): string {
  const parts = [`resource_metadata="${metadataUrl}"`];
  if (tokenPresented) parts.push('error="invalid_token"');
  if (scope !== undefined && scope.length > 0) parts.push(`scope="${scope.join(' ')}"`);
  return `Bearer ${parts.join(', ')}`;
}
