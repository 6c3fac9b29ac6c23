import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { LoopbackAuthorizer, McpOAuthOptions } from '@toolcircuit/mcp';
import type { CliIo } from '../cli-io.js';

/**
 * OAuth for a command run in a terminal: a loopback authorizer that prints the authorization link on
 * stderr (and opens the browser with `open`), and the tokens in one owner-only file — by default
 * `$XDG_CONFIG_HOME/toolcircuit/mcp-oauth.json` (`~/.config/…`), never in the project, so they are not
 * committed with it.
 */
export async function oauthForCli(
  io: CliIo,
  options: { readonly tokensFile: string | undefined; readonly open: boolean },
): Promise<{ readonly oauth: McpOAuthOptions; readonly authorizer: LoopbackAuthorizer }> {
  // Loaded on use, as the rest of @toolcircuit/mcp.
  const { FileOAuthStore, startLoopbackAuthorizer } = await import('@toolcircuit/mcp');
  const authorizer = await startLoopbackAuthorizer({
    openBrowser: options.open,
    onLink: (link) => {
      io.stderr.write(`Open this link to authorize toolcircuit with the MCP server:\n  ${link.href}\n`);
    },
  });
  const file =
    options.tokensFile === undefined
      ? join(io.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'toolcircuit', 'mcp-oauth.json')
      : resolve(io.cwd, options.tokensFile);
  return { authorizer, oauth: { authorizer, store: new FileOAuthStore(file), clientName: 'toolcircuit CLI' } };
}
