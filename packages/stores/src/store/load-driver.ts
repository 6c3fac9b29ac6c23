import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { StoreDriverMissingError } from '../errors/store-driver-missing-error.js';

/**
 * The drivers are imported when a store is opened, not when the package is: they are optional peer
 * dependencies, and importing `@toolcircuit/stores/sqlite` must not fail (or load a native module) for an
 * application that only names the type or never opens that store.
 */
export async function loadBetterSqlite3(): Promise<typeof BetterSqlite3> {
  const module = await importDriver('better-sqlite3', 'SQLite', () => import('better-sqlite3'));
  return module.default;
}

export async function loadPg(): Promise<typeof pg> {
  const module = await importDriver('pg', 'PostgreSQL', () => import('pg'));
  return module.default;
}

async function importDriver<T>(driver: string, store: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isNotFound(error, driver)) throw new StoreDriverMissingError(driver, store, { cause: error });
    throw error;
  }
}

/** Only the driver itself missing: a driver that is there but fails to load (a bad native build) keeps its own error. */
function isNotFound(error: unknown, driver: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return error.message.includes(`'${driver}'`);
}
