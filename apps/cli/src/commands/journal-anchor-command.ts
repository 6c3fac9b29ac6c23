import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from '../command.js';
import { ExitCode } from '../exit-codes.js';
import {
  ACCEPT_UNKEYED_OPTION,
  anchorOf,
  defaultJournalOpeners,
  describeVerification,
  JOURNAL_STORE_OPTIONS,
  type JournalAnchor,
  type JournalOpeners,
  keysOf,
  verifyOptionsOf,
  verifyStoreJournal,
} from './journal-store.js';

/** `toolcircuit journal anchor`; `openers` is replaceable so tests can open the stores from their sources. */
export function createJournalAnchorCommand(openers: JournalOpeners = defaultJournalOpeners): Command {
  return {
    name: 'journal anchor',
    summary: "Take a journal's head out of the database, so that a later cut, rewind or wipe is detected.",
    usage:
      'toolcircuit journal anchor (--sqlite <file> | --postgres <url>) [--schema <name>] [--key <id>=<file>]... [--out <file>]',
    description: [
      'Verifies the journal (against the last anchor of --out, if the file exists), then prints its head as an',
      'anchor: entry count, hash of the last entry and time, signed with the first --key. Keep anchors where',
      "the database's writers cannot change them (another machine, append-only storage) and verify against",
      'them: `toolcircuit journal verify --anchor <file>` reports any entry removed since.',
      '',
      'With --out, the anchor is appended to that file as one JSON line (and flushed to disk).',
    ].join('\n'),
    options: {
      ...JOURNAL_STORE_OPTIONS,
      out: { type: 'string', valueName: 'file', description: 'append the anchor to this file (one JSON line each)' },
      'accept-unkeyed-up-to': ACCEPT_UNKEYED_OPTION,
    },
    examples: [
      'toolcircuit journal anchor --sqlite app.sqlite --key k1=/etc/myapp/k1.key --out /mnt/audit/anchors.jsonl',
    ],
    exitCodes: [
      [ExitCode.ok, 'the journal is intact; the anchor was printed (and appended to --out)'],
      [ExitCode.failed, 'the journal did not verify: no anchor was taken (the entry and the damage are named)'],
      [ExitCode.usage, 'neither or both of --sqlite and --postgres, a missing file, not a store, a bad --key or --out'],
    ],
    async run(args, io) {
      const keys = keysOf(args, io);
      const out = args.string('out');
      const outFile = out === undefined ? undefined : resolve(io.cwd, out);
      const previous =
        outFile !== undefined && existsSync(outFile) && readFileSync(outFile, 'utf8').trim() !== ''
          ? await anchorOf(openers, outFile, io)
          : undefined;
      const options = verifyOptionsOf(args, keys, previous);
      // Anchoring a damaged journal would vouch for the damage: it is verified first.
      const { journal, verification } = await verifyStoreJournal(
        openers,
        'journal anchor',
        args,
        io,
        options,
        previous !== undefined,
      );
      let anchor: JournalAnchor | undefined;
      try {
        if (!verification.ok || journal === undefined) {
          io.stdout.write(`${describeVerification(verification)}\nno anchor was taken.\n`);
          return ExitCode.failed;
        }
        const [key] = keys;
        anchor = await journal.anchorJournal(key === undefined ? {} : { key });
      } finally {
        await journal?.close();
      }
      const line = JSON.stringify(anchor);
      if (outFile !== undefined) appendDurably(outFile, `${line}\n`);
      io.stdout.write(`${line}\n`);
      return ExitCode.ok;
    },
  };
}

function appendDurably(file: string, text: string): void {
  appendFileSync(file, text, 'utf8');
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export const journalAnchorCommand: Command = createJournalAnchorCommand();
