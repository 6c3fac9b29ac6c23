import type { Client } from '@modelcontextprotocol/client';
import type { McpToolInfo } from './tool-policy.js';

/** More pages than any real server has: a server that keeps answering with cursors is stopped here. */
const MAX_PAGES = 1000;

/** Every tool the server lists, following `nextCursor` until the last page. */
export async function listAllTools(client: Client, timeout: number): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    // One page per request, never the SDK's aggregated or cached listing: pinning must see every page the
    // server sends now (a cached answer would hide a definition changed since), and a cursor loop is ours to stop.
    const result = await client.request(
      { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
      { timeout },
    );
    tools.push(...(result.tools as McpToolInfo[]));
    cursor = result.nextCursor;
    if (cursor === undefined) return tools;
    // A cursor seen before would loop forever.
    if (cursors.has(cursor)) throw new Error(`the server repeated the tools/list cursor ${JSON.stringify(cursor)}`);
    cursors.add(cursor);
  }
  throw new Error(`the server's tools/list did not end after ${MAX_PAGES} pages`);
}
