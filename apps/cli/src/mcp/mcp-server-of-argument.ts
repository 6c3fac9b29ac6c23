import type { McpServerSpec } from '@toolcircuit/mcp';
import { UsageError } from '../errors/usage-error.js';

/**
 * The server `mcp import` talks to: an http(s) URL, or a command and its arguments (after `--` when they
 * have flags of their own): `toolcircuit mcp import -- npx -y @modelcontextprotocol/server-memory`.
 */
export function mcpServerOfArgument(
  words: readonly string[],
  transport: 'auto' | 'streamable-http' | 'sse',
  headers: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string>> = {},
): McpServerSpec {
  const [first, ...rest] = words;
  if (first === undefined) {
    throw new UsageError(
      'no MCP server given.',
      'Give a URL (toolcircuit mcp import http://127.0.0.1:3000/mcp) or a command (toolcircuit mcp import -- node server.js).',
    );
  }
  if (/^https?:\/\//.test(first)) {
    if (rest.length > 0) throw new UsageError(`unexpected words after the URL: ${rest.join(' ')}`);
    if (Object.keys(env).length > 0) {
      throw new UsageError('--pass-env applies to a server started as a command; an HTTP server takes --header.');
    }
    return { url: first, transport, headers };
  }
  return { command: first, args: rest, env, stderr: 'ignore' };
}
