export { openPostgresJournal } from './open-postgres-journal.js';
export {
  DEFAULT_POSTGRES_SCHEMA,
  openPostgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
} from './open-postgres-store.js';
export { openPostgresToolVectors, type PostgresToolVectors } from './open-postgres-tool-vectors.js';
export { postgresMigrations } from './postgres-migrations.js';
export type { PostgresTimeouts } from './postgres-settings.js';
