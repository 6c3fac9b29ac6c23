import { ToolcircuitError } from '@toolcircuit/core';

/**
 * The OAuth authorization for an MCP server did not complete: the human or the authorization server
 * refused, the redirect back did not match the request (`state`), or the server kept refusing the token.
 * Nothing was sent to the MCP server without a token it accepted.
 */
export class McpAuthorizationError extends ToolcircuitError {
  readonly kind = 'provider' as const;
  readonly code = 'mcp_authorization_failed' as const;
  readonly server: string;

  constructor(server: string, problem: string, options?: ErrorOptions) {
    super(`Authorization for MCP server ${server} failed: ${problem}`, options);
    this.server = server;
  }
}
