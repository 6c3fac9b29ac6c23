import type { ToolVectorCache } from '@toolcircuit/core';
import type pg from 'pg';
import { InvalidStoreOptionsError } from '../errors/invalid-store-options-error.js';
import { quoteIdentifier } from '../sql/sql-connection.js';
import { fromVectorBytes, TOOL_VECTOR_TABLE, toVectorBytes } from '../vectors/vector-bytes.js';
import { checkedSchemaName, ownPool } from './open-postgres-store.js';
import { postgresSettings } from './postgres-settings.js';

/** A tool-vector cache in PostgreSQL, with a `close` that ends the pool it created (not one it was given). */
export interface PostgresToolVectors extends ToolVectorCache {
  readonly schema: string;
  close(): Promise<void>;
}

/**
 * The tool search's vector cache (`toolSearch.embeddings.cache`) in PostgreSQL: one table of its own
 * (`<schema>.toolcircuit_tool_vectors`, created if missing, the schema the store's by default), keyed by
 * embedder id + digest of the tool's definition, shared by every worker, so a catalogue is embedded once.
 */
export async function openPostgresToolVectors(options: {
  readonly connectionString?: string;
  readonly pool?: pg.Pool;
  readonly schema?: string;
}): Promise<PostgresToolVectors> {
  const schema = checkedSchemaName(options.schema);
  if ((options.pool === undefined) === (options.connectionString === undefined)) {
    throw new InvalidStoreOptionsError('connectionString', 'give exactly one of `connectionString` and `pool`.');
  }
  const ownsPool = options.pool === undefined;
  const pool = options.pool ?? (await ownedPool(options.connectionString as string));
  const table = `${quoteIdentifier(schema)}.${quoteIdentifier(TOOL_VECTOR_TABLE)}`;
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
    await pool.query(`CREATE TABLE IF NOT EXISTS ${table} (key text PRIMARY KEY, vector bytea NOT NULL)`);
  } catch (error) {
    if (ownsPool) await pool.end();
    throw error;
  }
  return {
    schema,
    async get(keys) {
      if (keys.length === 0) return [];
      const result = await pool.query<{ key: string; vector: Buffer }>(
        `SELECT key, vector FROM ${table} WHERE key = ANY($1::text[])`,
        [keys],
      );
      const found = new Map(result.rows.map((row) => [row.key, fromVectorBytes(row.vector)]));
      return keys.map((key) => found.get(key));
    },
    async set(entries) {
      if (entries.length === 0) return;
      // One statement for the batch: unnest the keys and the vectors side by side.
      await pool.query(
        `INSERT INTO ${table} (key, vector) SELECT * FROM unnest($1::text[], $2::bytea[])
         ON CONFLICT (key) DO UPDATE SET vector = excluded.vector`,
        [entries.map((entry) => entry.key), entries.map((entry) => toVectorBytes(entry.vector))],
      );
    },
    async close() {
      if (ownsPool) await pool.end();
    },
  };
}

/** A pool of its own, with the store's time-outs and keep-alive (and the URL's own parameters). */
async function ownedPool(connectionString: string): Promise<pg.Pool> {
  const settings = postgresSettings(connectionString);
  return ownPool(settings.connectionString ?? connectionString, 4, settings.timeouts);
}
