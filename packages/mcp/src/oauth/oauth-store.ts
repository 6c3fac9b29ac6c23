import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

/** What is kept for one MCP server (one human's login to it): its tokens and the client's registration. */
export interface McpOAuthRecord {
  readonly tokens?: StoredOAuthTokens;
  /** The client id (and secret) the authorization server registered, so a restart does not register again. */
  readonly client?: StoredOAuthClientInformation;
}

/**
 * Where OAuth tokens live, chosen by the application: one record per key (by default the server's URL).
 * Tokens are credentials: a store that persists them must keep them where only their human can read them.
 */
export interface McpOAuthStore {
  get(key: string): McpOAuthRecord | undefined | Promise<McpOAuthRecord | undefined>;
  set(key: string, record: McpOAuthRecord): void | Promise<void>;
  delete(key: string): void | Promise<void>;
}

/** Keeps tokens for the life of the process (the default: every new process authorizes again). */
export class InMemoryOAuthStore implements McpOAuthStore {
  readonly #records = new Map<string, McpOAuthRecord>();

  get(key: string): McpOAuthRecord | undefined {
    return this.#records.get(key);
  }

  set(key: string, record: McpOAuthRecord): void {
    this.#records.set(key, record);
  }

  delete(key: string): void {
    this.#records.delete(key);
  }
}
