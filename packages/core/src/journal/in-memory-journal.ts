import type { Journal, JournalEntry, JournalNote } from './journal.js';

/** A journal kept in memory, for tests and single-process applications. Entries are frozen once appended. */
export class InMemoryJournal implements Journal {
  readonly #entries: JournalEntry[] = [];
  readonly #notes: JournalNote[] = [];
  /** The frozen list last handed out; a new one only after an append (reading is free, appending O(1)). */
  #snapshot: readonly JournalEntry[] | undefined;

  append(entry: JournalEntry): void {
    this.#entries.push(Object.freeze(numberedCopy(entry, this.#entries.length + 1)));
    this.#snapshot = undefined;
  }

  note(note: JournalNote): void {
    this.#notes.push(Object.freeze({ ...note }));
  }

  /** The notes in the order they were written (see `JournalNote`): a frozen copy. */
  get notes(): readonly JournalNote[] {
    return Object.freeze([...this.#notes]);
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

/**
 * The journal's own copy of an entry with its `seq`: what `{ ...entry, seq }` makes of JSON data (own
 * enumerable string keys, in order), built key by key. A spread's copy gets a hidden class (V8 map) outside the transition tree, so adding
 * `seq` to it made a new map for every entry (about 400 bytes each, kept as long as the entry) and a slow
 * copy; keys added one by one to an empty object share their maps across entries.
 */
function numberedCopy(entry: JournalEntry, seq: number): JournalEntry {
  const copy: Record<string, unknown> = {};
  const source = entry as unknown as Record<string, unknown>;
  for (const key in source) {
    if (!Object.hasOwn(source, key)) continue;
    // Assigning `__proto__` would set the prototype; a spread defines it as data (only a hand-made entry has it).
    if (key === '__proto__') Object.defineProperty(copy, key, { value: source[key], enumerable: true, writable: true });
    else copy[key] = source[key];
  }
  copy.seq = seq;
  return copy as unknown as JournalEntry;
}
