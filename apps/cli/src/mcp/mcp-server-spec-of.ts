import { resolve } from 'node:path';
import type { McpServerConfig } from '@toolcircuit/config';
import type { McpServerSpec } from '@toolcircuit/mcp';
import type { CliIo } from '../cli-io.js';
import { UsageError } from '../errors/usage-error.js';

/**
 * The server an `mcpServers` entry names: its URL with the bearer token read from the variable it names, or
 * its command with the variables of `passEnv` read from this process's environment. Values are read here,
 * at connect time, and never written anywhere.
 */
export function mcpServerSpecOf(name: string, server: McpServerConfig, directory: string, io: CliIo): McpServerSpec {
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
