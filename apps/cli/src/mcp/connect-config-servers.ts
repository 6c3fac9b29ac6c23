import { resolve } from 'node:path';
import type { McpServerConfig } from '@toolcircuit/config';
import { connectMcpServer, type McpConnection, type McpEvent, type McpServerSpec } from '@toolcircuit/mcp';
import type { CliIo } from '../cli-io.js';
import { UsageError } from '../errors/usage-error.js';
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
        server: specOf(name, server, directory, io),
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

function specOf(name: string, server: McpServerConfig, directory: string, io: CliIo): McpServerSpec {
  if (server.url !== undefined) {
    const headers: Record<string, string> = {};
    if (server.bearerTokenEnv !== undefined) {
      const token = io.env[server.bearerTokenEnv];
      if (token === undefined) {
        throw new UsageError(`mcpServers.${name}.bearerTokenEnv names ${server.bearerTokenEnv}, which is not set.`);
      }
      headers.Authorization = `Bearer ${token}`;
    }
    return { url: server.url, transport: server.transport ?? 'auto', headers };
  }
  const env: Record<string, string> = {};
  for (const variable of server.passEnv ?? []) {
    const value = io.env[variable];
    if (value !== undefined) env[variable] = value;
  }
  return {
    command: server.command ?? '',
    args: server.args ?? [],
    cwd: resolve(directory, server.cwd ?? '.'),
    env,
    stderr: 'ignore',
  };
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
