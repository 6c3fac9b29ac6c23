import type { McpConnection } from '@toolcircuit/mcp';

/** Where each tool's pinned fingerprint is kept in the file (`_meta` is MCP's own place for extra data). */
export const FINGERPRINT_META = 'toolcircuit/fingerprint';

/**
 * The file `mcp import` writes: an MCP `tools/list` result (so `lint`, `convert` and other MCP tools read it),
 * each tool with its fingerprint and the policy toolcircuit derived for it in `_meta`, and which server it
 * came from. The server's environment and headers are not written: they may hold secrets.
 */
export function importedToolsFile(connection: McpConnection, server: Readonly<Record<string, unknown>>): object {
  return {
    $comment: 'Written by `toolcircuit mcp import`: the tools/list of an MCP server, with the pinned fingerprints.',
    server: { name: connection.name, ...server },
    tools: connection.tools().map((tool) => {
      const listed = tool.mcp;
      return {
        name: listed.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(listed.outputSchema === undefined ? {} : { outputSchema: listed.outputSchema }),
        annotations: listed.annotations,
        _meta: {
          [FINGERPRINT_META]: listed.fingerprint,
          'toolcircuit/right': typeof tool.right === 'string' ? tool.right : 'everySession',
          'toolcircuit/irreversible': tool.irreversible,
          'toolcircuit/untrustedOutput': listed.untrustedOutput,
        },
      };
    }),
  };
}
