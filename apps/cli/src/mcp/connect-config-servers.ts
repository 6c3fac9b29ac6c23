import { resolve } from 'node:path';
import type { McpServerConfig } from '@toolcircuit/config';
import { connectMcpServer, type McpConnection, type McpEvent } from '@toolcircuit/mcp';
import type { CliIo } from '../cli-io.js';
import { UsageError } from '../errors/usage-error.js';
import { mcpServerSpecOf } from './mcp-server-spec-of.js';
import { pinsOfFile } from './pins-of-file.js';

/**
 * Connects to the `mcpServers` of toolcircuit.config.json, for `run`. Paths are relative to the config
 * file; secrets come from the environment by name only. Definition changes and skipped tools are told on
 * stderr. If one server fails, those already connected are closed and a usage error names the server.
 */
export async function connectConfigServers(
  servers: Readonly<Record<string, McpServerConfig>> | undefined,
  directory: string,
  io: CliIo,
): Promise<McpConnection[]> {
  const connections: McpConnection[] = [];
  try {
    for (const [name, server] of Object.entries(servers ?? {})) {
      const pins = server.pins === undefined ? undefined : await pinsOfFile(resolve(directory, server.pins));
      const connection = await connectMcpServer({
        name,
        server: mcpServerSpecOf(name, server, directory, io),
        ...(server.prefix === undefined ? {} : { prefix: server.prefix }),
        ...(pins === undefined ? {} : { pins }),
        onEvent: (event) => tell(io, event),
      }).catch((error: unknown) => {
        throw new UsageError(
          `MCP server "${name}" (mcpServers.${name} in the config) could not be reached: ${error instanceof Error ? error.message : String(error)}`,
          'Check its command or url.',
          { cause: error },
        );
      });
      connections.push(connection);
    }
    return connections;
  } catch (error) {
    await closeAll(connections);
    throw error;
  }
}

export async function closeAll(connections: readonly McpConnection[]): Promise<void> {
  await Promise.all(connections.map((connection) => connection.close().catch(() => undefined)));
}

function tell(io: CliIo, event: McpEvent): void {
  switch (event.type) {
    case 'definition-changed':
      io.stderr.write(
        `mcp ${event.server}: the definition of "${event.toolName}" changed since it was pinned; it will not run. ` +
          'Review it and import the server again to accept it.\n',
      );
      return;
    case 'tool-skipped':
      io.stderr.write(`mcp ${event.server}: tool "${event.mcpName}" left out: ${event.reason}\n`);
      return;
    case 'tool-added':
      io.stderr.write(`mcp ${event.server}: new tool "${event.toolName}" (not offered to the model in this run)\n`);
      return;
    default:
      return;
  }
}
