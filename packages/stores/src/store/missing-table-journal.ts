import type { JournalVerification } from '../journal/verify-journal.js';
import type { ReadonlyJournal } from './readonly-journal.js';

/** A table verification reads; one that is gone was dropped. */
export type JournalTable = 'journal' | 'journal_head' | 'runs' | 'run_calls';

export const JOURNAL_TABLES: readonly JournalTable[] = ['journal', 'journal_head', 'runs', 'run_calls'];

/**
 * The journal of a toolcircuit store (it has its migrations table) whose journal, head or run tables were
 * dropped: damage, which `verifyJournal` reports like any other (`deleted`, `head_missing`, `run_mismatch`;
 * the CLI exits 1), rather than a file that is "not a store" (a usage error). Nothing else can be read from it.
 */
export function missingTableJournal(
  missing: readonly JournalTable[],
  version: number,
  close: () => Promise<void>,
): ReadonlyJournal {
  const others = (table: JournalTable) => missing.filter((name) => name !== table);
  const also = (table: JournalTable) =>
    others(table).length === 0
      ? ''
      : ` The ${others(table).join(' and ')} table${others(table).length === 1 ? ' is' : 's are'} gone too.`;
  const verification: JournalVerification = missing.includes('journal')
    ? {
        ok: false,
        seq: 1,
        problem: 'deleted',
        message: `the journal table is gone from the store: it was dropped, with every entry.${also('journal')}`,
        entries: 0,
      }
    : missing.includes('journal_head')
      ? {
          ok: false,
          seq: 1,
          problem: 'head_missing',
          message:
            "the journal's head table is gone from the store: it was dropped, so entries deleted from the end " +
            `could not be told, and no entry was checked.${also('journal_head')}`,
          entries: 0,
        }
      : {
          ok: false,
          seq: 0,
          problem: 'run_mismatch',
          message: `the run table${missing.length === 1 ? '' : 's'} ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} gone from the store: dropped, with the runs and their decided calls; no entry was checked.`,
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
