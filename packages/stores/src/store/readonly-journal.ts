import type { DurableStore } from './durable-store.js';

/** A store's journal opened for reading only: verification and audit tools, never migrations or writes. */
export type ReadonlyJournal = Pick<
  DurableStore,
  'readJournal' | 'journalHead' | 'verifyJournal' | 'anchorJournal' | 'schemaVersion' | 'close'
>;

/** The read-only methods of a store, bound (so the rest of the store is not reachable through it). */
export function readonlyJournalOf(store: DurableStore): ReadonlyJournal {
  return {
    readJournal: (options) => store.readJournal(options),
    journalHead: () => store.journalHead(),
    verifyJournal: (options) => store.verifyJournal(options),
    anchorJournal: (options) => store.anchorJournal(options),
    schemaVersion: () => store.schemaVersion(),
    close: () => store.close(),
  };
}
