import { randomUUID } from 'node:crypto';
import type { PausedRun } from '@toolcircuit/core';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type DurableStore, type JournalPolicy, RunClaimConflictError, RunNotResumableError } from '../../src/index.js';
import { openPostgresStore, type PostgresStore } from '../../src/postgres/index.js';
import { describeLeaseConformance } from '../store/lease-conformance.js';
import { describeStoreConformance, pausedText, type StoreHarness } from '../store/store-conformance.js';
import { entry } from '../support/journal-entry.js';
import { POSTGRES_MISSING, postgresTestUrl, requirePostgresInCi } from '../support/postgres-url.js';
import { indexColumns } from '../support/raw-rows.js';
import { approveAll, done, marie, startPaused, world } from '../support/world.js';

const url = postgresTestUrl();
requirePostgresInCi(url);

// Every test gets its own schema in the shared database, so test files and tests never see each other.
const schemas: string[] = [];
function freshSchema(): string {
  const schema = `tc_test_${process.pid}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  schemas.push(schema);
  return schema;
}

async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function open(schema: string, journal?: JournalPolicy): Promise<PostgresStore> {
  return openPostgresStore({
    connectionString: url as string,
    schema,
    maxConnections: 4,
    ...(journal === undefined ? {} : { journal }),
  });
}

async function postgresHarness(options: { readonly journal?: JournalPolicy } = {}): Promise<StoreHarness> {
  const schema = freshSchema();
  const store = await open(schema, options.journal);
  // Its own pool: the second worker talks to the database over its own connections.
  const second = await open(schema, options.journal);
  const q = (name: string) => `"${schema}".${name}`;
  return {
    store,
    second,
    tamper: {
      rows: () =>
        withClient(async (client) => {
          const { rows } = await client.query(
            `SELECT seq, prev_hash AS "prevHash", hash, record_json AS "recordJson", key_id AS "keyId" FROM ${q('journal')} ORDER BY seq`,
          );
          return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
        }),
      replaceJournal: async (rows, head) => {
        await withClient(async (client) => {
          await client.query('BEGIN');
          await client.query(`DROP TRIGGER IF EXISTS journal_no_change ON ${q('journal')}`);
          await client.query(`DELETE FROM ${q('journal')}`);
          for (const row of rows) {
            const { runId, kind } = indexColumns(row);
            await client.query(
              `INSERT INTO ${q('journal')} (seq, run_id, kind, prev_hash, hash, record_json, key_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
              [row.seq, runId, kind, row.prevHash, row.hash, row.recordJson, row.keyId ?? null],
            );
          }
          await client.query(`UPDATE ${q('journal_head')} SET seq = $1, hash = $2 WHERE id = 1`, [head.seq, head.hash]);
          await client.query('COMMIT');
        });
        return store;
      },
      replacePausedState: async (runId, paused, layout) => {
        await withClient((client) =>
          client.query(`UPDATE ${q('runs')} SET paused_json = $1 WHERE run_id = $2`, [
            pausedText(paused, layout),
            runId,
          ]),
        );
      },
    },
    close: async () => {
      await store.close();
      await second.close();
    },
  };
}

afterAll(async () => {
  if (url === undefined || schemas.length === 0) return;
  await withClient(async (client) => {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });
});

if (url === undefined) {
  describe.skip(`PostgreSQL store (skipped: ${POSTGRES_MISSING})`, () => {
    it('needs a server', () => {});
  });
} else {
  describeStoreConformance('PostgreSQL', postgresHarness);
  describeLeaseConformance('PostgreSQL', postgresHarness);

  describe('PostgreSQL store', () => {
    it('exactly once across workers: four workers on their own pools race to resume each of five runs', async () => {
      const schema = freshSchema();
      const workers = await Promise.all([0, 1, 2, 3].map(() => open(schema)));
      try {
        const w = world();
        const runIds = ['r1', 'r2', 'r3', 'r4', 'r5'];
        const paused: PausedRun[] = [];
        for (const runId of runIds) paused.push(await startPaused(w, workers[0] as DurableStore, runId));
        const outcomes = await Promise.allSettled(
          runIds.flatMap((runId, index) =>
            workers.map((store, worker) =>
              w
                .runner(store, [done], { workerId: `worker-${worker}` })
                .resume(runId, approveAll(paused[index] as PausedRun), { session: marie() }),
            ),
          ),
        );
        const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        const lost = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
        expect(won).toHaveLength(runIds.length);
        expect(lost).toHaveLength(runIds.length * (workers.length - 1));
        for (const { reason } of lost) {
          // Lost the claim, or arrived after the winner had already claimed it: either way nothing ran.
          expect(reason instanceof RunClaimConflictError || reason instanceof RunNotResumableError).toBe(true);
        }
        expect(w.executions).toHaveLength(runIds.length);
        const store = workers[0] as DurableStore;
        for (const runId of runIds) {
          const rows = await store.readJournal({ runId });
          expect(
            rows.filter(
              ({ record }) => record.kind === 'call' && record.verdict === 'executed' && record.callId === 'pay',
            ),
          ).toHaveLength(1);
          expect(rows.filter(({ record }) => record.kind === 'decision')).toHaveLength(1);
          expect((await store.getRun(runId))?.status).toBe('completed');
        }
        expect((await store.verifyJournal()).ok).toBe(true);
      } finally {
        await Promise.all(workers.map((store) => store.close()));
      }
    });

    it('keeps one valid chain while several pools append at once', async () => {
      const schema = freshSchema();
      const workers = await Promise.all([0, 1, 2, 3].map(() => open(schema)));
      try {
        await Promise.all(
          workers.flatMap((store, worker) =>
            Array.from({ length: 20 }, (_, index) => store.journal.append(entry(`run-${worker}`, `c${index}`))),
          ),
        );
        const store = workers[0] as DurableStore;
        const rows = await store.readJournal();
        expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: 80 }, (_, index) => index + 1));
        expect(await store.verifyJournal()).toMatchObject({ ok: true, entries: 80 });
      } finally {
        await Promise.all(workers.map((store) => store.close()));
      }
    });

    it('migrates once when workers start together, and records the version', async () => {
      const schema = freshSchema();
      const workers = await Promise.all([0, 1, 2].map(() => open(schema)));
      await Promise.all(workers.map((store) => store.close()));
      const rows = await withClient(
        async (client) =>
          (await client.query(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`)).rows,
      );
      expect(rows).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }, { version: 4 }, { version: 5 }]);
      const again = await open(schema);
      expect(await again.schemaVersion()).toBe(5);
      await again.close();
    });

    it('the database itself refuses to change, delete or truncate journal rows', async () => {
      const schema = freshSchema();
      const store = await open(schema);
      try {
        await startPaused(world(), store);
        await withClient(async (client) => {
          await expect(client.query(`UPDATE "${schema}".journal SET record_json = '{}'`)).rejects.toThrow(
            /append-only/,
          );
          await expect(client.query(`DELETE FROM "${schema}".journal`)).rejects.toThrow(/append-only/);
          await expect(client.query(`TRUNCATE "${schema}".journal`)).rejects.toThrow(/append-only/);
          // The head row stays, and so does its keyed mark once set.
          await expect(client.query(`DELETE FROM "${schema}".journal_head`)).rejects.toThrow(/cannot be deleted/);
          await expect(client.query(`TRUNCATE "${schema}".journal_head`)).rejects.toThrow(/cannot be deleted/);
          await client.query(`UPDATE "${schema}".journal_head SET keyed_since = 1`);
          await expect(client.query(`UPDATE "${schema}".journal_head SET keyed_since = NULL`)).rejects.toThrow(
            /stays keyed/,
          );
        });
        // Now marked keyed, with unkeyed entries: refused.
        expect(await store.verifyJournal()).toMatchObject({ ok: false, seq: 1, problem: 'unkeyed' });
      } finally {
        await store.close();
      }
    });
  });
}
