import { NotAStoreError } from '../errors/not-a-store-error.js';
import { UnsupportedSchemaVersionError } from '../errors/unsupported-schema-version-error.js';
import type { JournalKey } from '../journal/journal-key.js';
import { SqlBackend } from '../sql/sql-backend.js';
import { appliedVersion } from '../sql/sql-migrations.js';
import { BackedStore } from '../store/backed-store.js';
import { JOURNAL_TABLES, missingTableJournal } from '../store/missing-table-journal.js';
import { type ReadonlyJournal, readonlyJournalOf } from '../store/readonly-journal.js';
import { checkedSchemaName, postgresConnection } from './open-postgres-store.js';
import { postgresMigrations } from './postgres-migrations.js';
import type { PostgresTimeouts } from './postgres-settings.js';

/**
 * Opens the journal of an existing PostgreSQL store read-only (no migration, no write; read transactions
 * only), e.g. for `toolcircuit journal verify`. Refuses a schema that holds no toolcircuit store
 * (`NotAStoreError`); a store whose journal tables were dropped opens, and its verification reports the damage.
 */
export async function openPostgresJournal(options: {
  readonly connectionString: string;
  readonly schema?: string;
  /** The store's current key: verification checks entries with it, anchors are signed with it. */
  readonly key?: JournalKey;
  readonly timeouts?: PostgresTimeouts;
}): Promise<ReadonlyJournal> {
  const schema = checkedSchemaName(options.schema);
  const connection = await postgresConnection(options, schema, 1);
  let version: number;
  try {
    const [found] = await connection.transaction('read', (session) =>
      session.all(
        'SELECT to_regclass(?) AS journal, to_regclass(?) AS journal_head, to_regclass(?) AS runs, ' +
          'to_regclass(?) AS run_calls, to_regclass(?) AS migrations',
        [
          connection.table('journal'),
          connection.table('journal_head'),
          connection.table('runs'),
          connection.table('run_calls'),
          connection.table('schema_migrations'),
        ],
      ),
    );
    // Its migrations table is what makes a schema a toolcircuit store; without it, it is something else.
    if (found === undefined || found.migrations === null) {
      throw new NotAStoreError({
        store: connection.location,
        problem: 'the schema holds no toolcircuit store (it has no journal table)',
        nextStep: 'Check the database in the URL and the --schema (default "toolcircuit").',
        retryable: false,
      });
    }
    version = await appliedVersion(connection);
    const latest = postgresMigrations(schema).length;
    if (version > latest) throw new UnsupportedSchemaVersionError(version, latest);
    const missing = JOURNAL_TABLES.filter((table) => found[table] === null);
    if (missing.length > 0) return missingTableJournal(missing, version, () => connection.close());
  } catch (error) {
    await connection.close();
    throw error;
  }
  return readonlyJournalOf(
    new BackedStore(new SqlBackend(connection, version), options.key === undefined ? {} : { key: options.key }, {
      location: connection.location,
    }),
  );
}
