import { fileURLToPath } from 'node:url';
import { ConfigurationError } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { connectMcpServer, InvalidMcpServerError } from '../src/index.js';

const changingServer = fileURLToPath(new URL('./fixtures/changing-server.mjs', import.meta.url));

function synthetic(env: Record<string, string>) {
  return { command: process.execPath, args: [changingServer], env, stderr: 'ignore' as const };
}

describe('connecting and listing', () => {
  it('follows tools/list pagination to the last page', async () => {
    const connection = await connectMcpServer({ name: 'paged', server: synthetic({ PAGE_SIZE: '1' }) });
    try {
      expect(connection.tools().map((tool) => tool.name)).toEqual(['send_report', 'rotate', 'sent_count']);
    } finally {
      await connection.close();
    }
  });

  it('stops a server that repeats its cursor instead of listing forever', async () => {
    await expect(
      connectMcpServer({ name: 'loop', server: synthetic({ PAGE_SIZE: '1', BAD_CURSOR: '1' }) }),
    ).rejects.toThrow(/repeated the tools\/list cursor "again"/);
  });

  it('reports a server that cannot start', async () => {
    await expect(
      connectMcpServer({
        name: 'gone',
        server: { command: process.execPath, args: ['-e', 'process.exit(3)'], stderr: 'ignore' },
      }),
    ).rejects.toThrow();
  });

  it('refuses a misconfigured server with a typed configuration error naming the field', async () => {
    const badUrl = connectMcpServer({ name: 'web', server: { url: 'not a url' } });
    await expect(badUrl).rejects.toBeInstanceOf(InvalidMcpServerError);
    await expect(badUrl).rejects.toMatchObject({ field: 'server', code: 'invalid_mcp_server' });
    const badName = connectMcpServer({ name: 'has space', server: synthetic({}) });
    await expect(badName).rejects.toBeInstanceOf(ConfigurationError);
    await expect(badName).rejects.toMatchObject({ field: 'name' });
  });

  it('prefixes catalogue names and keeps the server name for the call', async () => {
    const connection = await connectMcpServer({ name: 'reports', prefix: 'rep_', server: synthetic({}) });
    try {
      const catalogue = connection.catalogue();
      expect(catalogue.names).toEqual(['rep_send_report', 'rep_rotate', 'rep_sent_count']);
      const definition = connection.tools().find((tool) => tool.name === 'rep_sent_count');
      expect(definition?.mcp.name).toBe('sent_count');
      expect(definition?.mcp.untrustedOutput).toBe(false);
      expect(connection.tools().find((tool) => tool.name === 'rep_send_report')?.mcp.untrustedOutput).toBe(true);
    } finally {
      await connection.close();
    }
  });
});
