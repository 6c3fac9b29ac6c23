import type { DurableStore, StoredRunEvent } from '@toolcircuit/stores';
import type { LoggedEvent } from './run-event-log.js';

/**
 * Events with which what is pending is written at once: a turn's start (so a fast turn's events go out in
 * one write, with the next turn's start) and the stretch's end.
 */
const FLUSH_AT = new Set(['turn-start', 'error', 'loop-end']);
/** Otherwise pending events wait at most this long (a slow tool, a long streamed answer). */
export const MAX_WAIT_MS = 100;
/** Pending events written at once whatever the time (a long streamed answer). */
const MAX_PENDING = 256;
/** The run's oldest events over the bound are dropped every this many events written (and at each stretch end). */
const TRIM_EVERY = 1000;

interface RunBatch {
  pending: StoredRunEvent[];
  /** The writes of this run, one after another, in seq order. */
  chain: Promise<void>;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Events written since the run's events were last trimmed to the bound. */
  sinceTrim: number;
}

/**
 * Writes the events a run server logs to the store (`appendRunEvents`), batched per turn, so that a reader
 * of another process sharing the store, or of this server started again, reads them. A failed write is
 * reported and its events stay in memory only; the run is never held up by it.
 */
export class RunEventWriter {
  readonly #store: Required<Pick<DurableStore, 'appendRunEvents'>>;
  readonly #keep: number;
  readonly #onError: (error: unknown) => void;
  readonly #runs = new Map<string, RunBatch>();

  constructor(store: Required<Pick<DurableStore, 'appendRunEvents'>>, keep: number, onError: (error: unknown) => void) {
    this.#store = store;
    this.#keep = keep;
    this.#onError = onError;
  }

  /** Takes one logged event of a run; writes the batch at a turn's start, the stretch's end, or soon. */
  add(runId: string, event: LoggedEvent): void {
    const batch = this.#runs.get(runId) ?? { pending: [], chain: Promise.resolve(), timer: undefined, sinceTrim: 0 };
    this.#runs.set(runId, batch);
    batch.pending.push({ seq: event.seq, type: event.type, data: event.data });
    if (FLUSH_AT.has(event.type) || batch.pending.length >= MAX_PENDING) this.#flush(runId, batch, false);
    else if (batch.timer === undefined) {
      batch.timer = setTimeout(() => this.#flush(runId, batch, false), MAX_WAIT_MS);
      batch.timer.unref?.();
    }
  }

  /** Writes what is pending for the run; resolves once every write of the run so far is done. */
  settle(runId: string): Promise<void> {
    const batch = this.#runs.get(runId);
    if (batch === undefined) return Promise.resolve();
    this.#flush(runId, batch, true);
    const done = batch.chain;
    void done.then(() => {
      if (this.#runs.get(runId) === batch && batch.pending.length === 0 && batch.chain === done) {
        this.#runs.delete(runId);
      }
    });
    return done;
  }

  #flush(runId: string, batch: RunBatch, last: boolean): void {
    if (batch.timer !== undefined) clearTimeout(batch.timer);
    batch.timer = undefined;
    if (batch.pending.length === 0) return;
    const events = batch.pending;
    batch.pending = [];
    batch.sinceTrim += events.length;
    // Trimming reads the run's newest rows: done once in a while rather than with every write.
    const trim = last || batch.sinceTrim >= TRIM_EVERY;
    if (trim) batch.sinceTrim = 0;
    batch.chain = batch.chain.then(() =>
      this.#store.appendRunEvents({ runId, events, ...(trim ? { keep: this.#keep } : {}) }).catch((error: unknown) => {
        try {
          this.#onError(error);
        } catch {
          // A failing reporter changes nothing.
        }
      }),
    );
  }
}
