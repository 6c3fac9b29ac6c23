import { UnsupportedSchemaVersionError } from '../errors/unsupported-schema-version-error.js';
import type { SqlConnection, SqlValue } from './sql-connection.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[];
}

export interface MigrationPlan {
  /** Run first in the same transaction (PostgreSQL: an advisory lock, then CREATE SCHEMA). */
  readonly preamble?: readonly { readonly sql: string; readonly params?: readonly SqlValue[] }[];
  readonly migrations: readonly Migration[];
}

/**
 * Brings the schema to the last known version in ONE transaction: concurrent workers starting together
 * serialise on it, a failure leaves the schema as it was, and running it again changes nothing. A schema
 * newer than this release knows is refused without touching it.
 */
export async function migrate(connection: SqlConnection, plan: MigrationPlan): Promise<number> {
  const table = connection.table('schema_migrations');
  const latest = Math.max(0, ...plan.migrations.map((migration) => migration.version));
  return connection.transaction('write', async (session) => {
    for (const statement of plan.preamble ?? []) await session.all(statement.sql, statement.params ?? []);
    await session.run(
      `CREATE TABLE IF NOT EXISTS ${table} (version INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL)`,
    );
    const applied = new Set((await session.all(`SELECT version FROM ${table}`)).map((row) => Number(row.version)));
    const newest = Math.max(0, ...applied);
    if (newest > latest) throw new UnsupportedSchemaVersionError(newest, latest);
    for (const migration of [...plan.migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      for (const statement of migration.statements) await session.run(statement);
      await session.run(`INSERT INTO ${table} (version, name, applied_at) VALUES (?, ?, ?)`, [
        migration.version,
        migration.name,
        new Date().toISOString(),
      ]);
    }
    return latest;
  });
}

/** The last migration applied. */
export async function appliedVersion(connection: SqlConnection): Promise<number> {
  const rows = await connection.transaction('read', (session) =>
    session.all(`SELECT MAX(version) AS version FROM ${connection.table('schema_migrations')}`),
  );
  return Number(rows[0]?.version ?? 0);
}
