import type { JournalPolicy } from '../journal/journal-policy.js';
import { BackedStore } from '../store/backed-store.js';
import type { DurableStore } from '../store/durable-store.js';
import { type JournalSnapshot, MemoryBackend } from './memory-backend.js';

export interface MemoryStoreOptions {
  readonly journal?: JournalPolicy;
  /**
   * Start from this journal, as it is (not re-hashed): e.g. to verify an exported journal. Runs are not
   * part of a snapshot.
   */
  readonly snapshot?: JournalSnapshot;
}

/** A store for tests and single-process applications: the same rules as the database stores, in memory. */
export interface MemoryStore extends DurableStore {
  /** A copy of the journal rows and head. */
  exportJournal(): JournalSnapshot;
}

class InMemoryStore extends BackedStore implements MemoryStore {
  readonly #backend: MemoryBackend;

  constructor(backend: MemoryBackend, policy: JournalPolicy | undefined) {
    super(backend, policy);
    this.#backend = backend;
  }

  exportJournal(): JournalSnapshot {
    return this.#backend.snapshot();
  }
}

export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  return new InMemoryStore(new MemoryBackend(options.snapshot), options.journal);
}
