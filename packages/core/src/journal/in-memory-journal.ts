import type { Journal, JournalEntry } from './journal.js';

/** A journal kept in memory, for tests and single-process applications. Entries are frozen once appended. */
export class InMemoryJournal implements Journal {
  readonly #entries: JournalEntry[] = [];

  append(entry: JournalEntry): void {
    this.#entries.push(Object.freeze({ ...entry, seq: this.#entries.length + 1 }));
  }

  /** All entries in append order (a copy of the list; the entries themselves are frozen). */
  get entries(): readonly JournalEntry[] {
    return [...this.#entries];
  }
}
