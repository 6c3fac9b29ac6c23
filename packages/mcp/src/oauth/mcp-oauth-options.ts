import type { McpOAuthStore } from './oauth-store.js';

/**
 * The human's side of the authorization code flow: where the authorization server sends the browser back
 * to, and how the link reaches the human. {@link startLoopbackAuthorizer} is one for command-line tools.
 */
export interface McpAuthorizer {
  /** The redirect URI registered with the authorization server (e.g. `http://127.0.0.1:PORT/callback`). */
  readonly redirectUrl: string | URL;
  /**
   * Shows the human the authorization link (prints it, opens the browser, sends it to their page) and
   * resolves with the query parameters of the redirect back (`code`, `state`, `iss`, or `error`).
   */
  authorize(authorizationUrl: URL): Promise<URLSearchParams>;
}

/** OAuth 2.1 for an MCP server reached over HTTP, on the SDK's OAuth client (`server: { url, oauth }`). */
export interface McpOAuthOptions {
  readonly authorizer: McpAuthorizer;
  /** Where tokens and the client registration are kept. Default: in memory, for this connection's process. */
  readonly store?: McpOAuthStore;
  /** The record's key in the store. Default: the server's URL. Give each human their own key (or store). */
  readonly storeKey?: string;
  /** Shown by the authorization server on its consent page when the client registers itself. Default `toolcircuit`. */
  readonly clientName?: string;
  /**
   * An HTTPS URL where your client ID metadata document is published: used as the client id when the
   * authorization server supports client ID metadata documents, instead of dynamic registration.
   */
  readonly clientMetadataUrl?: string;
  /** A client registered beforehand with the authorization server (no dynamic registration then). */
  readonly client?: { readonly clientId: string; readonly clientSecret?: string };
  /** Scopes to ask for when the server names none (in its `WWW-Authenticate` or its resource metadata). */
  readonly scope?: string;
  /**
   * How many times one request may re-authorize for more scope after a `403 insufficient_scope`
   * (default 2): a server that keeps asking does not loop the human through the browser forever.
   */
  readonly maxStepUps?: number;
}
