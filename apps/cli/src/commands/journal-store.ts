import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type {
  JournalAnchor,
  JournalKey,
  ReadonlyJournal,
  JournalVerification as Verification,
  VerifyJournalOptions as VerifyOptions,
} from '@toolcircuit/stores';
import type { CliIo } from '../cli-io.js';
import type { CommandOption } from '../command.js';
import { UsageError } from '../errors/usage-error.js';
import type { ParsedArgs } from '../parsed-args.js';

// Types only: erased at run time, so the stores (and their drivers) are still loaded on use.
export type {
  JournalAnchor,
  JournalHead,
  JournalKey,
  JournalVerification as Verification,
  ReadonlyJournal,
  VerifyJournalOptions as VerifyOptions,
} from '@toolcircuit/stores';

/** How the journal of each backend is opened: the `./sqlite` and `./postgres` entry points of @toolcircuit/stores. */
export interface JournalOpeners {
  sqlite(file: string): Promise<ReadonlyJournal>;
  postgres(connectionString: string, schema: string | undefined): Promise<ReadonlyJournal>;
  /** Reads an anchor from its text (`<seq>:<hash>` or the JSON of an anchor; the last line of a file). */
  parseAnchor(text: string): Promise<JournalAnchor>;
}

// Loaded on use: the stores and their drivers (better-sqlite3, pg) are optional, and every other command
// must work without them. The specifiers are variables so the CLI builds whether or not they are installed.
const STORES = '@toolcircuit/stores';
const STORES_SQLITE = '@toolcircuit/stores/sqlite';
const STORES_POSTGRES = '@toolcircuit/stores/postgres';

export const defaultJournalOpeners: JournalOpeners = {
  sqlite: async (file) => {
    const module = (await importOptional(STORES_SQLITE, 'better-sqlite3')) as {
      openSqliteJournal(options: { file: string }): Promise<ReadonlyJournal>;
    };
    return module.openSqliteJournal({ file });
  },
  postgres: async (connectionString, schema) => {
    const module = (await importOptional(STORES_POSTGRES, 'pg')) as {
      openPostgresJournal(options: { connectionString: string; schema?: string }): Promise<ReadonlyJournal>;
    };
    return module.openPostgresJournal({ connectionString, ...(schema === undefined ? {} : { schema }) });
  },
  parseAnchor: async (text) => {
    const module = (await importOptional(STORES, '')) as { parseJournalAnchor(text: string): JournalAnchor };
    return module.parseJournalAnchor(lastLine(text));
  },
};

export async function importOptional(specifier: string, driver: string): Promise<unknown> {
  try {
    return await import(specifier);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new UsageError(
      `${specifier} is not installed.`,
      `Install it with its driver next to the CLI: npm install @toolcircuit/stores ${driver}`.trimEnd(),
      { cause: error },
    );
  }
}

/** The flags every journal command takes to find the store and its keys. */
export const JOURNAL_STORE_OPTIONS: Readonly<Record<string, CommandOption>> = {
  sqlite: {
    type: 'string',
    valueName: 'file',
    description: 'the SQLite store file (e.g. <data dir>/toolcircuit.sqlite)',
  },
  postgres: {
    type: 'string',
    valueName: 'url',
    description: 'the PostgreSQL connection URL (or set TOOLCIRCUIT_POSTGRES_URL and pass --postgres env)',
  },
  schema: {
    type: 'string',
    valueName: 'name',
    description: 'PostgreSQL schema of the store (default toolcircuit)',
  },
  key: {
    type: 'string',
    multiple: true,
    valueName: 'id=file',
    description:
      'a journal key: its id and a file holding its secret (repeat for retired keys; the first signs anchors)',
  },
};

/** `--accept-unkeyed-up-to`, for the commands that verify. */
export const ACCEPT_UNKEYED_OPTION: CommandOption = {
  type: 'string',
  valueName: 'seq',
  description: 'with --key: entries up to this one may be unkeyed (written before the key was turned on)',
};

/** What to verify with, from the flags: the keys, the anchor, and how many leading entries may be unkeyed. */
export function verifyOptionsOf(
  args: ParsedArgs,
  keys: readonly JournalKey[],
  anchor: JournalAnchor | undefined,
): VerifyOptions {
  const acceptUnkeyedUpTo = args.integer('accept-unkeyed-up-to', { min: 0 });
  return {
    ...(keys.length === 0 ? {} : { keys }),
    ...(anchor === undefined ? {} : { anchor }),
    ...(acceptUnkeyedUpTo === undefined ? {} : { acceptUnkeyedUpTo }),
  };
}

/** Opens the journal the flags name; anything that stops it opening is the user's to fix (exit 2). */
export async function openJournal(
  openers: JournalOpeners,
  commandName: string,
  args: ParsedArgs,
  io: CliIo,
): Promise<ReadonlyJournal> {
  if (args.positionals.length > 0) {
    throw new UsageError(`${commandName} takes no positional arguments, got "${args.positionals.join(' ')}".`);
  }
  const sqlite = args.string('sqlite');
  const postgres = args.string('postgres');
  const schema = args.string('schema');
  if ((sqlite === undefined) === (postgres === undefined)) {
    throw new UsageError(
      'give exactly one of --sqlite <file> and --postgres <url>.',
      `Usage: toolcircuit ${commandName} --sqlite <file>`,
    );
  }
  if (sqlite !== undefined && schema !== undefined) throw new UsageError('--schema applies to --postgres only.');
  try {
    if (sqlite !== undefined) return await openers.sqlite(resolve(io.cwd, sqlite));
    const url = postgres === 'env' ? io.env['TOOLCIRCUIT_POSTGRES_URL'] : postgres;
    if (url === undefined || url === '') {
      throw new UsageError('--postgres env given but TOOLCIRCUIT_POSTGRES_URL is not set.');
    }
    return await openers.postgres(url, schema);
  } catch (error) {
    // Typed already (a configuration or store error names the store and what to do), or damage, which the
    // verifying commands report as a finding.
    if (error instanceof UsageError || isConfigurationError(error) || isStoreKind(error)) throw error;
    // A refused connection or an unreadable file: the user's environment, not a toolcircuit bug. The URL
    // is not repeated (it may hold a password).
    throw new UsageError(
      `could not open the store: ${error instanceof Error ? error.message : String(error)}`,
      sqlite === undefined ? 'Check the URL, that the server is up, and the credentials.' : 'Check the path.',
      { cause: error },
    );
  }
}

export function isConfigurationError(error: unknown): boolean {
  return error instanceof Error && (error as { kind?: unknown }).kind === 'configuration';
}

function isStoreKind(error: unknown): boolean {
  return error instanceof Error && (error as { kind?: unknown }).kind === 'store';
}

/**
 * Opens the journal and verifies it. A store the database reports damaged (a corrupted page) is a finding
 * about the journal, exit 1, like any other damage: never an internal error.
 */
export async function verifyStoreJournal(
  openers: JournalOpeners,
  commandName: string,
  args: ParsedArgs,
  io: CliIo,
  options: VerifyOptions,
  anchorFromFile: boolean,
): Promise<{ journal?: ReadonlyJournal; verification: CheckedJournal }> {
  let journal: ReadonlyJournal | undefined;
  try {
    journal = await openJournal(openers, commandName, args, io);
    return { journal, verification: await checkJournal(journal, options, anchorFromFile) };
  } catch (error) {
    await journal?.close();
    if ((error as { code?: unknown } | null)?.code !== 'store_corrupt') throw error;
    return {
      verification: {
        ok: false,
        seq: 1,
        problem: 'corrupt',
        message: `the store cannot be read: ${(error as Error).message}`,
        entries: 0,
      },
    };
  }
}

/**
 * The keys of `--key <id>=<file>`: each file holds one secret (surrounding whitespace trimmed), at least
 * 32 bytes. Secrets come from files, never from the command line, which other users of the machine can read.
 */
export function keysOf(args: ParsedArgs, io: CliIo): JournalKey[] {
  return args.list('key').map((spec) => {
    const match = /^([^=]+)=(.+)$/.exec(spec);
    if (match === null) {
      throw new UsageError(`--key must be <id>=<file>, got "${spec}".`, 'e.g. --key k1=/etc/myapp/journal-k1.key');
    }
    const [, id, file] = match as unknown as [string, string, string];
    let secret: string;
    try {
      secret = readFileSync(resolve(io.cwd, file), 'utf8').trim();
    } catch (error) {
      throw new UsageError(`cannot read the key file of --key ${id}: ${(error as Error).message}`, undefined, {
        cause: error,
      });
    }
    if (Buffer.byteLength(secret, 'utf8') < 32) {
      throw new UsageError(
        `the key file of --key ${id} holds ${Buffer.byteLength(secret, 'utf8')} bytes; a journal key has at least 32.`,
        'Create one with: openssl rand -hex 32 > journal.key',
      );
    }
    return { id, secret };
  });
}

/** `--anchor`: `<seq>:<hash>`, or a file whose last line is an anchor (as `journal anchor --out` writes). */
export async function anchorOf(
  openers: JournalOpeners,
  value: string | undefined,
  io: CliIo,
): Promise<JournalAnchor | undefined> {
  if (value === undefined) return undefined;
  let text = value;
  if (anchorIsFile(value)) {
    try {
      text = readFileSync(resolve(io.cwd, value), 'utf8');
    } catch (error) {
      throw new UsageError(
        `--anchor must be <seq>:<64 hex digits> or an anchor file, got "${value}" (${(error as Error).message}).`,
        'Use the head printed by `toolcircuit journal verify`, or the file `toolcircuit journal anchor --out` writes.',
        { cause: error },
      );
    }
  }
  try {
    return await openers.parseAnchor(text);
  } catch (error) {
    if (!isConfigurationError(error)) throw error;
    throw new UsageError(`--anchor: ${(error as Error).message}`, undefined, { cause: error });
  }
}

function lastLine(text: string): string {
  return (
    text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .at(-1) ?? ''
  );
}

/** A verification, or the anchor it was asked to check against, refused as tampered with. */
export type CheckedJournal = Verification | { readonly ok: false; readonly anchorRejected: string };

/**
 * Verifies the journal against `options`. An anchor that shows tampering (its MAC wrong or removed, or
 * unsigned where keys are used) is reported as a failed check, like damage to the journal, not thrown as a
 * usage error: the evidence the auditor relies on was changed. `anchorFromFile`: the anchor is the last line
 * of a file; with keys, an unsigned line there (even a bare `<seq>:<hash>`) is refused.
 */
export async function checkJournal(
  journal: ReadonlyJournal,
  options: VerifyOptions,
  anchorFromFile: boolean,
): Promise<CheckedJournal> {
  const { anchor, keys } = options;
  // Neither key id nor MAC (a half-signed one is the verifier's to name: `checkAnchor`).
  const unsigned = anchor !== undefined && !('mac' in anchor) && !('keyId' in anchor);
  if (anchorFromFile && unsigned && (keys?.length ?? 0) > 0) {
    return {
      ok: false,
      anchorRejected:
        'the last line of the anchor file carries no MAC, but keys were given: anchors taken with a journal key ' +
        'are signed, so an unsigned line may have replaced the real one.',
    };
  }
  try {
    return await journal.verifyJournal(options);
  } catch (error) {
    if (!isTamperedAnchor(error)) throw error;
    return { ok: false, anchorRejected: error.message };
  }
}

// Duck-typed: the stores are loaded on use, and may be another copy than the CLI's types.
function isTamperedAnchor(error: unknown): error is Error {
  const fields = error as { code?: unknown; tampered?: unknown };
  return error instanceof Error && fields.code === 'invalid_journal_anchor' && fields.tampered === true;
}

/** Whether `--anchor` names a file (anything but `<seq>:…`, which is typed by the auditor). */
export function anchorIsFile(value: string | undefined): boolean {
  return value !== undefined && !/^\d+:/.test(value);
}

/** The verification in words: the intact head (usable as an anchor), or the first entry that did not check out. */
export function describeVerification(verification: CheckedJournal): string {
  if ('anchorRejected' in verification)
    return `journal NOT VERIFIED: the anchor was rejected: ${verification.anchorRejected}`;
  if (verification.ok) {
    const anchored = verification.anchor === undefined ? '' : `, contains anchor ${verification.anchor.seq}`;
    const lines = [
      `journal intact: ${verification.entries} entries, head ${verification.head.seq}:${verification.head.hash}${anchored}`,
    ];
    if (verification.unkeyedEntries > 0) {
      lines.push(
        `note: ${verification.unkeyedEntries} entries are on the unkeyed chain, which catches accidents but not ` +
          'someone who re-hashes what they change; use a journal key and anchors against that.',
      );
    }
    return lines.join('\n');
  }
  const verdict =
    verification.problem === 'unverifiable'
      ? 'NOT VERIFIED'
      : verification.problem === 'corrupt'
        ? 'DAMAGED'
        : 'TAMPERED';
  if (verification.problem === 'run_mismatch') {
    return `journal ${verdict}: the run tables: ${verification.message}\n(all ${verification.entries} entries of the chain checked out)`;
  }
  return (
    `journal ${verdict}: entry ${verification.seq} ${verification.problem}: ${verification.message}\n` +
    `(${verification.entries} entries before it checked out)`
  );
}
