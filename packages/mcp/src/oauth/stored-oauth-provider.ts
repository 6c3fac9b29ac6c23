import { randomBytes } from 'node:crypto';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { McpOAuthOptions } from './mcp-oauth-options.js';
import { InMemoryOAuthStore, type McpOAuthRecord, type McpOAuthStore } from './oauth-store.js';

/**
 * The SDK's `OAuthClientProvider` over an application's token store. It does not redirect anyone itself:
 * `redirectToAuthorization` keeps the link, and the OAuth fetch hands it to the application's authorizer,
 * so the connection waits for the human instead of failing with "redirect initiated".
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  readonly #store: McpOAuthStore;
  readonly #key: string;
  readonly #options: McpOAuthOptions;
  #codeVerifier: string | undefined;
  #state: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #authorizationUrl: URL | undefined;
  /** Used as the client id where the authorization server supports client ID metadata documents. */
  readonly clientMetadataUrl?: string;

  constructor(options: McpOAuthOptions, serverUrl: URL) {
    this.#options = options;
    if (options.clientMetadataUrl !== undefined) this.clientMetadataUrl = options.clientMetadataUrl;
    this.#store = options.store ?? new InMemoryOAuthStore();
    this.#key = options.storeKey ?? serverUrl.href;
  }

  get redirectUrl(): string {
    return String(this.#options.authorizer.redirectUrl);
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.#options.clientName ?? 'toolcircuit',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(this.#options.scope === undefined ? {} : { scope: this.#options.scope }),
    };
  }

  state(): string {
    this.#state = randomBytes(16).toString('base64url');
    return this.#state;
  }

  /** The `state` sent with the last authorization link: the redirect back must carry the same. */
  expectedState(): string | undefined {
    return this.#state;
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    const stored = (await this.#record()).client;
    // A registration made for another redirect URI (a CLI's loopback port changes between runs) would be
    // refused at the authorization endpoint: register again instead.
    const uris = (stored as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    const stale = Array.isArray(uris) && !uris.includes(this.redirectUrl);
    if (stored !== undefined && !stale) return stored;
    const preset = this.#options.client;
    if (preset === undefined) return undefined;
    return {
      client_id: preset.clientId,
      ...(preset.clientSecret === undefined ? {} : { client_secret: preset.clientSecret }),
    };
  }

  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    await this.#update({ client });
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.#record()).tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await this.#update({ tokens });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.#authorizationUrl = authorizationUrl;
  }

  /** The link `auth()` asked to send the human to, once. */
  takeAuthorizationUrl(): URL | undefined {
    const url = this.#authorizationUrl;
    this.#authorizationUrl = undefined;
    return url;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#codeVerifier === undefined) throw new Error('no PKCE code verifier was saved for this authorization');
    return this.#codeVerifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'all') this.#codeVerifier = undefined;
    if (scope === 'discovery' || scope === 'all') this.#discovery = undefined;
    if (scope === 'tokens' || scope === 'all') await this.#update({ tokens: undefined });
    if (scope === 'client' || scope === 'all') await this.#update({ client: undefined });
  }

  async #record(): Promise<McpOAuthRecord> {
    return (await this.#store.get(this.#key)) ?? {};
  }

  async #update(change: { tokens?: StoredOAuthTokens | undefined; client?: StoredOAuthClientInformation | undefined }) {
    const merged: Record<string, unknown> = { ...(await this.#record()), ...change };
    for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
    if (Object.keys(merged).length === 0) await this.#store.delete(this.#key);
    else await this.#store.set(this.#key, merged as McpOAuthRecord);
  }
}
