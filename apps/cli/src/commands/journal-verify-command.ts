import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import {
  ACCEPT_UNKEYED_OPTION,
  anchorIsFile,
  anchorOf,
  defaultJournalOpeners,
  describeVerification,
  JOURNAL_STORE_OPTIONS,
  type JournalOpeners,
  keysOf,
  verifyOptionsOf,
  verifyStoreJournal,
} from './journal-store.js';

/** `toolcircuit journal verify`; `openers` is replaceable so tests can open the stores from their sources. */
export function createJournalVerifyCommand(openers: JournalOpeners = defaultJournalOpeners): Command {
  return {
    name: 'journal verify',
    summary: 'Check that a store journal was not edited, shortened or reordered since it was written.',
    usage:
      'toolcircuit journal verify (--sqlite <file> | --postgres <url>) [--schema <name>] [--key <id>=<file>]... [--anchor <seq>:<hash> | <file>] [--json]',
    description: [
      'Walks the whole chain, read-only, and names the first entry that does not check out: edited, deleted,',
      'moved, inserted, or cut off since an anchor. Nothing is migrated or written.',
      '',
      'Unkeyed, every entry carries the SHA-256 of the one before it: that catches accidents and clumsy edits,',
      'not someone who re-hashes what they change. A store with a journal key chains entries with HMAC-SHA256',
      'under it: give the key (and retired ones) with --key to check them; without the key nobody can forge or',
      're-hash an entry. Neither catches a tail cut off with the head row rewound, or a wiped journal: pass an',
      'anchor taken earlier (`toolcircuit journal anchor`) with --anchor for that.',
      '',
      'A journal that was ever keyed never verifies as intact without its key: give --key. The run tables,',
      'outside the chain, are checked against it: a decided call whose approval, tool or arguments differ',
      'from the entry that decided it, or a run moved to another session. Every kind of damage exits 1: a',
      'changed, missing or dropped entry or table, an unsigned or altered anchor.',
    ].join('\n'),
    options: {
      ...JOURNAL_STORE_OPTIONS,
      anchor: {
        type: 'string',
        valueName: 'seq:hash | file',
        description: 'an anchor taken earlier (or a file of anchors: its last line), which must still be in the chain',
      },
      'accept-unkeyed-up-to': ACCEPT_UNKEYED_OPTION,
      json: { type: 'boolean', description: 'print the verification result as JSON' },
    },
    examples: [
      'toolcircuit journal verify --sqlite ~/.local/share/myapp/toolcircuit.sqlite',
      'toolcircuit journal verify --sqlite app.sqlite --key k2=/etc/myapp/k2.key --key k1=/etc/myapp/k1.key --anchor anchors.jsonl',
      'TOOLCIRCUIT_POSTGRES_URL=postgres://audit@db/app toolcircuit journal verify --postgres env',
    ],
    exitCodes: [
      [ExitCode.ok, 'the journal is intact'],
      [
        ExitCode.failed,
        'the journal was tampered with (a table dropped included), an entry could not be checked (a keyed journal without --key), the anchor was altered or is unsigned where keys are used, or the store is damaged (the entry and the damage are named)',
      ],
      [
        ExitCode.usage,
        'neither or both of --sqlite and --postgres, a missing file, not a store, a malformed --anchor, a bad --key',
      ],
    ],
    async run(args, io) {
      const keys = keysOf(args, io);
      const anchor = await anchorOf(openers, args.string('anchor'), io);
      const options = verifyOptionsOf(args, keys, anchor);
      const { journal, verification } = await verifyStoreJournal(
        openers,
        'journal verify',
        args,
        io,
        options,
        anchorIsFile(args.string('anchor')),
      );
      await journal?.close();
      if (args.flag('json')) io.stdout.write(`${JSON.stringify(verification, null, 2)}\n`);
      else io.stdout.write(`${describeVerification(verification)}\n`);
      return verification.ok ? ExitCode.ok : ExitCode.failed;
    },
  };
}

export const journalVerifyCommand: Command = createJournalVerifyCommand();
