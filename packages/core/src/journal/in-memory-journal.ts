import type { Journal, JournalEntry } from './journal.js';

/** A journal kept in memory, for tests and single-process applications. Entries are frozen once appended. */
export class InMemoryJournal implements Journal {
  readonly #entries: JournalEntry[] = [];
  /** The frozen list last handed out; a new one only after an append (reading is free, appending O(1)). */
  #snapshot: readonly JournalEntry[] | undefined;

  append(entry: JournalEntry): void {
    this.#entries.push(Object.freeze({ ...entry, seq: this.#entries.length + 1 }));
    this.#snapshot = undefined;
  }

  /**
   * All entries in append order: a frozen list, the same one until the next append (copying the whole list
   * on every read made a loop that reads the journal per call quadratic); the entries themselves are frozen.
   */
  get entries(): readonly JournalEntry[] {
    this.#snapshot ??= Object.freeze([...this.#entries]);
    return this.#snapshot;
  }
}
