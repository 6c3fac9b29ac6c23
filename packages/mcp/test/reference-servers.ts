import { fileURLToPath } from 'node:url';
import type { McpStdioServer } from '../src/index.js';

/** The reference servers from the npm registry, started over stdio with this Node (offline). */
function entry(packageName: string): string {
  return fileURLToPath(new URL(`../node_modules/@modelcontextprotocol/${packageName}/dist/index.js`, import.meta.url));
}

export function filesystemServer(...directories: string[]): McpStdioServer {
  return { command: process.execPath, args: [entry('server-filesystem'), ...directories], stderr: 'ignore' };
}

export function everythingServer(): McpStdioServer {
  return { command: process.execPath, args: [entry('server-everything'), 'stdio'], stderr: 'ignore' };
}

export function memoryServer(memoryFile: string): McpStdioServer {
  return {
    command: process.execPath,
    args: [entry('server-memory')],
    env: { MEMORY_FILE_PATH: memoryFile, PATH: process.env.PATH ?? '' },
    stderr: 'ignore',
  };
}
