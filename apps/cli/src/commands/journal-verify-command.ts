import { resolve } from 'node:path';
import type { Command } from '../command.js';
import { UsageError } from '../errors/usage-error.js';
import { ExitCode } from '../exit-codes.js';

/** The slice of @toolcircuit/stores' verification result this command prints. */
type Verification =
  | { readonly ok: true; readonly entries: number; readonly head: { readonly seq: number; readonly hash: string } }
  | {
      readonly ok: false;
      readonly seq: number;
      readonly problem: string;
      readonly message: string;
      readonly entries: number;
    };

interface ReadonlyJournal {
  verifyJournal(options?: { readonly anchor?: { readonly seq: number; readonly hash: string } }): Promise<Verification>;
  close(): Promise<void>;
}

/** How the journal of each backend is opened: the `./sqlite` and `./postgres` entry points of @toolcircuit/stores. */
export interface JournalOpeners {
  sqlite(file: string): Promise<ReadonlyJournal>;
  postgres(connectionString: string, schema: string | undefined): Promise<ReadonlyJournal>;
}

// Loaded on use: the stores and their drivers (better-sqlite3, pg) are optional, and every other command
// must work without them. The specifiers are variables so the CLI builds whether or not they are installed.
const STORES_SQLITE = '@toolcircuit/stores/sqlite';
const STORES_POSTGRES = '@toolcircuit/stores/postgres';

const defaultOpeners: JournalOpeners = {
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
};

async function importOptional(specifier: string, driver: string): Promise<unknown> {
  try {
    return await import(specifier);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new UsageError(
      `${specifier} is not installed.`,
      `Install it with its driver next to the CLI: npm install @toolcircuit/stores ${driver}`,
      { cause: error },
    );
  }
}

/** `toolcircuit journal verify`; `openers` is replaceable so tests can open the stores from their sources. */
export function createJournalVerifyCommand(openers: JournalOpeners = defaultOpeners): Command {
  return {
    name: 'journal verify',
    summary: 'Check that a store journal was not edited, shortened or reordered since it was written.',
    usage:
      'toolcircuit journal verify (--sqlite <file> | --postgres <url>) [--schema <name>] [--anchor <seq>:<hash>] [--json]',
    description: [
      'Every journal entry carries the SHA-256 of the one before it. This walks the whole chain, read-only, and',
      'names the first entry that was edited, deleted, moved or inserted. The store must exist; nothing is',
      'migrated or written.',
      '',
      'A history rewritten and re-hashed from some point on is a valid chain again: keep the head printed by an',
      'earlier run somewhere else and pass it as --anchor to detect that too.',
    ].join('\n'),
    options: {
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
      anchor: {
        type: 'string',
        valueName: 'seq:hash',
        description: 'a head saved earlier, which must still be in the chain',
      },
      json: { type: 'boolean', description: 'print the verification result as JSON' },
    },
    examples: [
      'toolcircuit journal verify --sqlite ~/.local/share/myapp/toolcircuit.sqlite',
      'TOOLCIRCUIT_POSTGRES_URL=postgres://audit@db/app toolcircuit journal verify --postgres env',
      'toolcircuit journal verify --sqlite app.sqlite --anchor 1200:3f0c…',
    ],
    exitCodes: [
      [ExitCode.ok, 'the journal is intact'],
      [ExitCode.failed, 'the journal was tampered with (the entry is named)'],
      [ExitCode.usage, 'neither or both of --sqlite and --postgres, a missing file, not a store, a bad --anchor'],
    ],
    async run(args, io) {
      if (args.positionals.length > 0) {
        throw new UsageError(`journal verify takes no positional arguments, got "${args.positionals.join(' ')}".`);
      }
      const sqlite = args.string('sqlite');
      const postgres = args.string('postgres');
      if ((sqlite === undefined) === (postgres === undefined)) {
        throw new UsageError(
          'give exactly one of --sqlite <file> and --postgres <url>.',
          'Usage: toolcircuit journal verify --sqlite <file>',
        );
      }
      if (sqlite !== undefined && args.string('schema') !== undefined) {
        throw new UsageError('--schema applies to --postgres only.');
      }
      const anchor = anchorOf(args.string('anchor'));
      const journal = await open(openers, sqlite, postgres, args.string('schema'), io);
      let verification: Verification;
      try {
        verification = await journal.verifyJournal(anchor === undefined ? {} : { anchor });
      } finally {
        await journal.close();
      }
      if (args.flag('json')) io.stdout.write(`${JSON.stringify(verification, null, 2)}\n`);
      else io.stdout.write(`${describe(verification)}\n`);
      return verification.ok ? ExitCode.ok : ExitCode.failed;
    },
  };
}

export const journalVerifyCommand: Command = createJournalVerifyCommand();

async function open(
  openers: JournalOpeners,
  sqlite: string | undefined,
  postgres: string | undefined,
  schema: string | undefined,
  io: Parameters<Command['run']>[1],
): Promise<ReadonlyJournal> {
  try {
    if (sqlite !== undefined) return await openers.sqlite(resolve(io.cwd, sqlite));
    const url = postgres === 'env' ? io.env['TOOLCIRCUIT_POSTGRES_URL'] : postgres;
    if (url === undefined || url === '') {
      throw new UsageError('--postgres env given but TOOLCIRCUIT_POSTGRES_URL is not set.');
    }
    return await openers.postgres(url, schema);
  } catch (error) {
    if (error instanceof UsageError || isConfigurationError(error)) throw error;
    // A refused connection or an unreadable file: the user's environment, not a toolcircuit bug. The URL
    // is not repeated (it may hold a password).
    throw new UsageError(
      `could not open the store: ${error instanceof Error ? error.message : String(error)}`,
      sqlite === undefined ? 'Check the URL, that the server is up, and the credentials.' : 'Check the path.',
      { cause: error },
    );
  }
}

function isConfigurationError(error: unknown): boolean {
  return error instanceof Error && (error as { kind?: unknown }).kind === 'configuration';
}

function anchorOf(text: string | undefined): { seq: number; hash: string } | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+):([0-9a-f]{64})$/.exec(text);
  if (match === null) {
    throw new UsageError(
      `--anchor must be <seq>:<64 hex digits>, got "${text}".`,
      'Use the head printed by an earlier `toolcircuit journal verify`.',
    );
  }
  return { seq: Number(match[1]), hash: match[2] as string };
}

function describe(verification: Verification): string {
  if (verification.ok) {
    return `journal intact: ${verification.entries} entries, head ${verification.head.seq}:${verification.head.hash}`;
  }
  return (
    `journal TAMPERED: entry ${verification.seq} ${verification.problem}: ${verification.message}\n` +
    `(${verification.entries} entries before it checked out)`
  );
}
