import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { NotAStoreError } from '../errors/not-a-store-error.js';
import { StoreCorruptError } from '../errors/store-corrupt-error.js';
import { isStoreError } from '../errors/store-error.js';
import { StoreReadOnlyError } from '../errors/store-read-only-error.js';
import { StoreTimeoutError } from '../errors/store-timeout-error.js';
import { StoreUnavailableError } from '../errors/store-unavailable-error.js';

/** The code of a better-sqlite3 error (`SQLITE_BUSY`, `SQLITE_READONLY_DBMOVED`…), or of the store error made of one. */
export function sqliteCode(error: unknown): string | undefined {
  const { code, driverCode } = (error ?? {}) as { code?: unknown; driverCode?: unknown };
  const found = typeof code === 'string' && code.startsWith('SQLITE_') ? code : driverCode;
  return typeof found === 'string' && found.startsWith('SQLITE_') ? found : undefined;
}

export function isSqliteBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** Errors after which the connection is opened again before its next use (it may be stuck read-only). */
export function needsReopen(error: unknown): boolean {
  const code = sqliteCode(error);
  return (
    code !== undefined &&
    (code.startsWith('SQLITE_READONLY') ||
      code.startsWith('SQLITE_IOERR') ||
      code.startsWith('SQLITE_CANTOPEN') ||
      code === 'SQLITE_PERM')
  );
}

/**
 * A driver error as the store's typed error, naming the file and what to do; anything that is not about the
 * database itself (a constraint, the store's own checks) is returned as it is. `opening`: the file is being
 * opened, where "not a database" means the wrong file rather than a damaged one.
 */
export function sqliteStoreError(error: unknown, file: string, opening = false): unknown {
  const code = sqliteCode(error);
  if (code === undefined || isStoreError(error)) return error;
  const detail = `${code}: ${(error as Error).message}`;
  const base = { store: file, driverCode: code, cause: error };
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StoreTimeoutError({
      ...base,
      problem: `another connection held the database's lock too long (${detail})`,
      nextStep:
        'Nothing was written. Try again; if it keeps happening, look for a process that keeps a write ' +
        'transaction open on this file, or raise busyTimeoutMs.',
      retryable: true,
    });
  }
  if (code.startsWith('SQLITE_READONLY')) {
    const moved = code === 'SQLITE_READONLY_DBMOVED';
    return new StoreReadOnlyError({
      ...base,
      problem: moved
        ? `the database file was moved or deleted while the store had it open (${detail})`
        : `the database cannot be written (${detail}): ${unwritableParts(file)}`,
      nextStep: moved
        ? 'Nothing was written. Put the file back where it was; the store opens it again on its next operation.'
        : `Nothing was written. Give this process${uid()} write access to the file, its -wal and -shm files and ` +
          'its folder; the store opens the file again on its next operation, without a restart.',
      retryable: true,
    });
  }
  if (code === 'SQLITE_NOTADB' && opening) {
    return new NotAStoreError({
      ...base,
      problem: `the file is not a SQLite database (${detail})`,
      nextStep:
        'Check the path: it must be a toolcircuit store, or a file that does not exist yet. If it was a store, its ' +
        'first page was overwritten: restore it from a backup.',
      retryable: false,
    });
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return corruptSqliteError(file, detail, error);
  }
  if (code.startsWith('SQLITE_FULL')) {
    return new StoreUnavailableError({
      ...base,
      problem: `the disk that holds the database is full (${detail})`,
      nextStep: 'Nothing was written. Free space on that disk; the store then writes again, without a restart.',
      retryable: true,
    });
  }
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM') {
    return new StoreUnavailableError({
      ...base,
      problem: `the database file cannot be opened (${detail})`,
      nextStep:
        `Check that its folder exists and that this process${uid()} may read and write the folder and the file ` +
        '(and its -wal and -shm files).',
      retryable: false,
    });
  }
  if (code.startsWith('SQLITE_IOERR')) {
    return new StoreUnavailableError({
      ...base,
      problem: `reading or writing the database failed (${detail})`,
      nextStep:
        'Nothing was written. Check the disk, the file system and the permissions of the file and its folder; ' +
        'the store opens the file again on its next operation.',
      retryable: true,
    });
  }
  if (code.startsWith('SQLITE_NOMEM') || code.startsWith('SQLITE_PROTOCOL') || code.startsWith('SQLITE_INTERRUPT')) {
    return new StoreUnavailableError({
      ...base,
      problem: `the database could not do the work (${detail})`,
      nextStep: 'Nothing was written. Try again.',
      retryable: true,
    });
  }
  return error;
}

/** Damage found by the driver or by an integrity check. */
export function corruptSqliteError(file: string, detail: string, cause?: unknown): StoreCorruptError {
  return new StoreCorruptError({
    store: file,
    driverCode: 'SQLITE_CORRUPT',
    cause,
    problem: `the database file is damaged (${detail})`,
    nextStep:
      `Stop using it and restore it from a backup; \`toolcircuit journal verify --sqlite ${file}\` names the first ` +
      'journal entry that cannot be read. The store creates and claims no run while it is damaged.',
    retryable: false,
  });
}

/** Which of the file, its -wal and -shm files and its folder this process may not write, in words. */
function unwritableParts(file: string): string {
  const parts = [file, `${file}-wal`, `${file}-shm`, dirname(file)].filter((path) => {
    if (!existsSync(path)) return false;
    try {
      accessSync(path, constants.W_OK);
      return false;
    } catch {
      return true;
    }
  });
  return parts.length > 0
    ? `not writable by this process: ${parts.join(', ')}`
    : 'the file, its -wal or -shm file, or its folder is not writable by this process, or the file system is read-only';
}

function uid(): string {
  return typeof process.getuid === 'function' ? ` (uid ${process.getuid()})` : '';
}
