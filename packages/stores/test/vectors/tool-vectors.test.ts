// The tool search's vector cache on real SQLite and PostgreSQL: vectors round-trip bit for bit, a missing
// key is a miss, a key is overwritten, the vectors outlive the connection, and a hybrid search over a
// reopened cache embeds only its query (a changed tool is embedded again).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createHybridToolSearch,
  createToolSearchIndex,
  type Embedder,
  type SearchableTool,
  type ToolVectorCache,
} from '@toolcircuit/core';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresToolVectors } from '../../src/postgres/index.js';
import { openSqliteToolVectors } from '../../src/sqlite/index.js';
import { POSTGRES_MISSING, postgresTestUrl, requirePostgresInCi } from '../support/postgres-url.js';

type Opened = ToolVectorCache & { close(): Promise<void> };

const tools: SearchableTool[] = [
  { name: 'send_sms', description: 'Delivers a short message to a phone.', inputSchema: { type: 'object' } },
  { name: 'list_invoices', description: 'Lists invoices.', inputSchema: { type: 'object' } },
];

function countingEmbedder(counts: number[]): Embedder {
  return {
    id: 'test:length',
    async embed(texts) {
      counts.push(texts.length);
      return texts.map((text) => [text.length, text.includes('phone') || text.includes('mobile') ? 1 : 0, 1]);
    },
  };
}

/** `place()` gives each test a fresh place (a file, a schema) and how to open the cache there, again and again. */
function describeToolVectors(label: string, place: () => () => Promise<Opened>): void {
  describe(label, () => {
    it('stores, reads back bit for bit, overwrites, and keeps vectors after reopening', async () => {
      const open = place();
      const first = await open();
      const vector = Float32Array.from([0.1, -2.5, 3.4028234663852886e38, 1e-45]);
      await first.set([{ key: 'k1', vector }]);
      expect(await first.get(['k1', 'missing'])).toEqual([vector, undefined]);
      await first.set([{ key: 'k1', vector: Float32Array.from([7]) }]);
      await first.close();
      const second = await open();
      expect(await second.get(['k1'])).toEqual([Float32Array.from([7])]);
      await second.close();
    });

    it('spares a hybrid search re-embedding unchanged tools after a restart', async () => {
      const open = place();
      const counts: number[] = [];
      const embedder = countingEmbedder(counts);
      const before = await open();
      await createHybridToolSearch(tools, createToolSearchIndex(tools), { embedder, cache: before }).prepare();
      await before.close();
      const after = await open();
      const changed = [
        tools[0] as SearchableTool,
        { ...(tools[1] as SearchableTool), description: 'Lists unpaid invoices.' },
      ];
      const hybrid = createHybridToolSearch(changed, createToolSearchIndex(changed), { embedder, cache: after });
      const hits = await hybrid.search('ring her mobile', 1);
      await after.close();
      expect(hits.map((hit) => hit.name)).toEqual(['send_sms']);
      // Two tools at first; after the restart only the changed tool, then the query.
      expect(counts).toEqual([2, 1, 1]);
    });
  });
}

const directory = await mkdtemp(join(tmpdir(), 'tc-vectors-'));
afterAll(() => rm(directory, { recursive: true, force: true }));
describeToolVectors('SQLite tool vectors', () => {
  const file = join(directory, `${randomUUID()}.db`);
  return () => openSqliteToolVectors({ file });
});

const url = postgresTestUrl();
requirePostgresInCi(url);
if (url === undefined) {
  describe.skip(`PostgreSQL tool vectors (skipped: ${POSTGRES_MISSING})`, () => {
    it('needs a server', () => {});
  });
} else {
  const schemas: string[] = [];
  describeToolVectors('PostgreSQL tool vectors', () => {
    const schema = `tc_vectors_${process.pid}_${randomUUID().replaceAll('-', '').slice(0, 8)}`;
    schemas.push(schema);
    return () => openPostgresToolVectors({ connectionString: url, schema });
  });
  afterAll(async () => {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });
}
