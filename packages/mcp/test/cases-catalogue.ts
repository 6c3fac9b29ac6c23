import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { type Catalogue, createCatalogue, defineTool } from '@toolcircuit/core';

/**
 * The served catalogue of the serve tests: a reversible lookup and an irreversible `close_case`, which records
 * each case it really closed in `closed`.
 */
export function casesCatalogue(closed: string[]): Catalogue {
  return createCatalogue([
    defineTool({
      name: 'lookup_case',
      description: 'Look up a case by its number.',
      inputSchema: {
        type: 'object',
        properties: { number: { type: 'string', pattern: '^[A-Z]-[0-9]{4}$' } },
        required: ['number'],
        additionalProperties: false,
      },
      right: 'cases:read',
      run: ({ number }) => ({ number, status: 'open' }),
    }),
    defineTool({
      name: 'close_case',
      description: 'Close a case for good.',
      inputSchema: {
        type: 'object',
        properties: { number: { type: 'string' } },
        required: ['number'],
        additionalProperties: false,
      },
      right: 'cases:close',
      irreversible: true,
      run: ({ number }) => {
        closed.push(number);
        return `Case ${number} closed.`;
      },
    }),
  ]);
}

/** The application's own authentication: bearer tokens → people → sessions. Never anything from the body. */
export const people: Record<string, { humanId: string; rights: string[] }> = {
  'token-alice': { humanId: 'alice', rights: ['cases:read', 'cases:close'] },
  'token-bob': { humanId: 'bob', rights: [] },
  'token-carol': { humanId: 'carol', rights: ['cases:read', 'cases:close'] },
};

/** `serveCatalogueHttp`'s `authenticate` for the tokens above. */
export function authenticateBearer(request: IncomingMessage): AuthInfo | undefined {
  const token = request.headers.authorization?.replace(/^Bearer /, '');
  return token !== undefined && token in people ? { token, clientId: token, scopes: [] } : undefined;
}
