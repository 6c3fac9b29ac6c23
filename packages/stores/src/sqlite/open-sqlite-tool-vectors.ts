import type { ToolVectorCache } from '@toolcircuit/core';
import { loadBetterSqlite3 } from '../store/load-driver.js';
import { fromVectorBytes, TOOL_VECTOR_TABLE, toVectorBytes } from '../vectors/vector-bytes.js';

/** A tool-vector cache in SQLite, with a `close` for the database it opened. */
export interface SqliteToolVectors extends ToolVectorCache {
  close(): Promise<void>;
}

/** How many keys one SELECT carries (SQLite's default limit of bound parameters is 32,766). */
const KEYS_PER_SELECT = 500;

/**
 * The tool search's vector cache (`toolSearch.embeddings.cache`) in a SQLite file: one table of its own
 * (`toolcircuit_tool_vectors`, created if missing), keyed by embedder id + digest of the tool's definition,
 * so vectors survive restarts and a changed tool is embedded again. It may share the store's file.
 */
export async function openSqliteToolVectors(options: { readonly file: string }): Promise<SqliteToolVectors> {
  const Database = await loadBetterSqlite3();
  const db = new Database(options.file);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE IF NOT EXISTS ${TOOL_VECTOR_TABLE} (key TEXT PRIMARY KEY, vector BLOB NOT NULL)`);
  const upsert = db.prepare(
    `INSERT INTO ${TOOL_VECTOR_TABLE} (key, vector) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET vector = excluded.vector`,
  );
  const writeAll = db.transaction((entries: readonly { key: string; vector: Float32Array }[]) => {
    for (const { key, vector } of entries) upsert.run(key, toVectorBytes(vector));
  });
  return {
    async get(keys) {
      const found = new Map<string, Float32Array>();
      for (let start = 0; start < keys.length; start += KEYS_PER_SELECT) {
        const slice = keys.slice(start, start + KEYS_PER_SELECT);
        const rows = db
          .prepare(`SELECT key, vector FROM ${TOOL_VECTOR_TABLE} WHERE key IN (${slice.map(() => '?').join(', ')})`)
          .all(...slice) as { key: string; vector: Buffer }[];
        for (const row of rows) found.set(row.key, fromVectorBytes(row.vector));
      }
      return keys.map((key) => found.get(key));
    },
    async set(entries) {
      writeAll(entries);
    },
    async close() {
      db.close();
    },
  };
}
