import type { StoreBackend, WriteTransaction } from './store-backend.js';

interface Pending {
  readonly work: (tx: WriteTransaction) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit: store writes that arrive together (the start markers of a turn's calls, which reach the
 * store in the same tick; the journal entries of calls that answer together) share one write transaction
 * and so one commit, one fsync, one round of the lock. Each write still resolves only once that
 * transaction has committed, so nothing is reported written before it is durable.
 *
 * A write that refuses (throws one of `isRefusal`'s errors, which the store's checks throw before they
 * write anything) fails alone and the others commit; any other error fails the whole transaction, and
 * with it every write of the batch, as a failed transaction of one write would.
 */
export class WriteBatcher {
  readonly #backend: Pick<StoreBackend, 'write'>;
  readonly #isRefusal: (error: unknown) => boolean;
  #pending: Pending[] = [];
  #scheduled = false;
  #writing = false;

  constructor(backend: Pick<StoreBackend, 'write'>, isRefusal: (error: unknown) => boolean) {
    this.#backend = backend;
    this.#isRefusal = isRefusal;
  }

  write<T>(work: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#writing) return;
    this.#scheduled = true;
    // After the current tick: the writes of calls that reach the store together are all queued by then.
    setImmediate(() => {
      this.#scheduled = false;
      void this.#flush();
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return;
    this.#writing = true;
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      await this.#backend.write(async (tx) => {
        outcomes.length = 0;
        for (const pending of batch) {
          try {
            outcomes.push({ ok: true, value: await pending.work(tx) });
          } catch (error) {
            if (!this.#isRefusal(error)) throw error;
            outcomes.push({ ok: false, value: error });
          }
        }
      });
      for (const [index, pending] of batch.entries()) {
        const outcome = outcomes[index];
        if (outcome?.ok === true) pending.resolve(outcome.value);
        else pending.reject(outcome?.value);
      }
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    } finally {
      this.#writing = false;
      // Writes that arrived while this one was committing go out together, next.
      if (this.#pending.length > 0) this.#schedule();
    }
  }
}
