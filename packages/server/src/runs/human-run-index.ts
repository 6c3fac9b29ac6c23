import type { DurableStore } from '@toolcircuit/stores';

/** Journal rows read per page while catching up. */
const PAGE = 500;

/**
 * Which runs of each human have paused on a call, learnt from the store's journal: every call held for a
 * decision is journaled (verdict `awaiting_confirmation`) with its run and human in the transaction that
 * stores the pause. The journal is the store's own durable record, so the index needs no table of its own
 * and finds the runs of other processes and of earlier lives of this one; it reads only the rows appended
 * since it last looked. A run is a candidate, not an answer: the caller reads the run and keeps it only
 * while it is paused.
 */
export class HumanRunIndex {
  readonly #store: DurableStore;
  readonly #runs = new Map<string, Set<string>>();
  #seq = 0;
  /** The passes, one after another: each reader's own pass starts after it asked, so it sees what was there. */
  #passes: Promise<void> = Promise.resolve();

  constructor(store: DurableStore) {
    this.#store = store;
  }

  /** The ids of the human's runs that paused at some point, oldest first. */
  async runsOf(humanId: string): Promise<string[]> {
    await this.#catchUp();
    return [...(this.#runs.get(humanId) ?? [])];
  }

  /** Forgets a run that is no longer paused (a later pause journals it again). */
  forget(humanId: string, runId: string): void {
    this.#runs.get(humanId)?.delete(runId);
  }

  #catchUp(): Promise<void> {
    const pass = this.#passes.then(() => this.#read());
    // A failed pass fails its reader only; the next one starts from the last row read.
    this.#passes = pass.catch(() => undefined);
    return pass;
  }

  async #read(): Promise<void> {
    for (;;) {
      const rows = await this.#store.readJournal({ afterSeq: this.#seq, limit: PAGE });
      for (const row of rows) {
        this.#seq = Math.max(this.#seq, row.seq);
        const { record } = row;
        if (record.kind !== 'call' || record.verdict !== 'awaiting_confirmation') continue;
        let runs = this.#runs.get(record.humanId);
        if (runs === undefined) {
          runs = new Set();
          this.#runs.set(record.humanId, runs);
        }
        runs.add(record.runId);
      }
      if (rows.length < PAGE) return;
    }
  }
}
