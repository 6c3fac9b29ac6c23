import type { JournalVerification } from '../journal/verify-journal.js';
import type { ReadonlyJournal } from './readonly-journal.js';

/** A journal table a store must have; one that is gone was dropped. */
export type JournalTable = 'journal' | 'journal_head';

export const JOURNAL_TABLES: readonly JournalTable[] = ['journal', 'journal_head'];

/**
 * The journal of a toolcircuit store (it has its migrations table) whose journal or head table was
 * dropped: damage, which `verifyJournal` reports like any other (`deleted`, `head_missing`; the CLI exits 1),
 * rather than a file that is "not a store" (a usage error). Nothing else can be read from it.
 */
export function missingTableJournal(
  missing: readonly JournalTable[],
  version: number,
  close: () => Promise<void>,
): ReadonlyJournal {
  const verification: JournalVerification = missing.includes('journal')
    ? {
        ok: false,
        seq: 1,
        problem: 'deleted',
        message: `the journal table is gone from the store: it was dropped, with every entry.${
          missing.includes('journal_head') ? ' Its head table is gone too.' : ''
        }`,
        entries: 0,
      }
    : {
        ok: false,
        seq: 1,
        problem: 'head_missing',
        message:
          "the journal's head table is gone from the store: it was dropped, so entries deleted from the end " +
          'could not be told, and no entry was checked.',
        entries: 0,
      };
  const unreadable = async (): Promise<never> => {
    throw new Error(`the store's ${missing.join(' and ')} table is missing; run \`toolcircuit journal verify\` on it`);
  };
  return {
    readJournal: unreadable,
    journalHead: unreadable,
    verifyJournal: async () => verification,
    anchorJournal: unreadable,
    schemaVersion: async () => version,
    close,
  };
}
