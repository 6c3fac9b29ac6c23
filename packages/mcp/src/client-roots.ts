import type { Client } from '@modelcontextprotocol/client';
import { InvalidMcpServerError } from './errors/invalid-mcp-server-error.js';

/** A directory or file the application lets an imported server know about (`file://` URI). */
export interface McpRoot {
  readonly uri: string;
  readonly name?: string;
}

/**
 * The client capability for the roots the application chose, or none: without `roots` the server is not
 * told that the client has any, and cannot ask.
 */
export function rootsCapability(roots: readonly McpRoot[] | undefined): { roots?: { listChanged: false } } {
  if (roots === undefined) return {};
  for (const root of roots) {
    if (typeof root.uri !== 'string' || !root.uri.startsWith('file://')) {
      throw new InvalidMcpServerError('roots', `root ${JSON.stringify(root.uri)} must be a file:// URI.`);
    }
  }
  return { roots: { listChanged: false } };
}

/** Answers `roots/list` with exactly the application's roots (a copy: the server cannot change them). */
export function answerRoots(client: Client, roots: readonly McpRoot[] | undefined): void {
  if (roots === undefined) return;
  const listed = roots.map((root) => ({ uri: root.uri, ...(root.name === undefined ? {} : { name: root.name }) }));
  client.setRequestHandler('roots/list', () => ({ roots: listed.map((root) => ({ ...root })) }));
}
