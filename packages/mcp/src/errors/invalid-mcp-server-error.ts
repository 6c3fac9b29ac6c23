import { ConfigurationError } from '@toolcircuit/core';

/** An MCP server is described in a way that cannot work; `field` names the option to fix. */
export class InvalidMcpServerError extends ConfigurationError {
  readonly code = 'invalid_mcp_server' as const;

  constructor(field: string, problemAndFix: string) {
    super(field, `MCP server (${field}): ${problemAndFix}`);
  }
}
