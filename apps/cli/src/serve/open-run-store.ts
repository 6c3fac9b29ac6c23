import { resolve } from 'node:path';
import type { DurableStore } from '@toolcircuit/stores';
import { importOptional } from '../commands/journal-store.js';
import { UsageError } from '../errors/usage-error.js';

/** The default `--store`: an SQLite file in the current folder, so runs outlive the server. */
export const DEFAULT_STORE = 'sqlite:./toolcircuit-runs.sqlite';

export interface OpenedStore {
  readonly store: DurableStore;
  /** What the server prints: the file, or the URL without its password. */
  readonly label: string;
  close(): Promise<void>;
}

/**
 * Opens the store `--store` names: `sqlite:<file>` (relative to the current folder) or a `postgres://` /
 * `postgresql://` URL. The drivers are loaded on use (they are optional for the other commands).
 */
export async function openRunStore(spec: string, cwd: string): Promise<OpenedStore> {
  if (spec.startsWith('sqlite:')) {
    const file = resolve(cwd, spec.slice('sqlite:'.length));
    if (spec.length === 'sqlite:'.length)
      throw new UsageError('--store sqlite: names no file.', 'e.g. --store sqlite:./runs.db');
    const { openSqliteStore } = (await importOptional(
      '@toolcircuit/stores/sqlite',
      'better-sqlite3',
    )) as typeof import('@toolcircuit/stores/sqlite');
    const store = await openSqliteStore({ file });
    return { store, label: file, close: () => store.close() };
  }
  if (/^postgres(ql)?:\/\//.test(spec)) {
    const { openPostgresStore } = (await importOptional(
      '@toolcircuit/stores/postgres',
      'pg',
    )) as typeof import('@toolcircuit/stores/postgres');
    const store = await openPostgresStore({ connectionString: spec });
    const url = new URL(spec);
    if (url.password !== '') url.password = '***';
    return { store, label: url.toString(), close: () => store.close() };
  }
  throw new UsageError(
    `--store must be sqlite:<file> or a postgres:// URL, got "${spec}".`,
    `e.g. --store sqlite:./runs.db or --store postgres://app@localhost:5432/app (default ${DEFAULT_STORE})`,
  );
}
