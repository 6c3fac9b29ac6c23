import type { DurableStore, StoredRunEvent } from '@toolcircuit/stores';
import type { LoggedEvent } from './run-event-log.js';

/** Pending events wait at most this long (a slow model or tool, a long streamed answer). */
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

  /**
   * Takes one logged event of a run. A turn's events are written together when the next turn starts (a
   * fast turn: one write), the last turn's with the stretch's end (`settle`), or within `MAX_WAIT_MS`.
   */
  add(runId: string, event: LoggedEvent): void {
    const batch = this.#runs.get(runId) ?? { pending: [], chain: Promise.resolve(), timer: undefined, sinceTrim: 0 };
    this.#runs.set(runId, batch);
    if (event.type === 'turn-start' && batch.pending.length > 0) this.#flush(runId, batch, false);
    batch.pending.push({ seq: event.seq, type: event.type, data: event.data });
    if (batch.pending.length >= MAX_PENDING) this.#flush(runId, batch, false);
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
    const events = batch.pending;
    batch.pending = [];
    batch.sinceTrim += events.length;
    // Trimming reads the run's newest rows: done at the stretch's end and every TRIM_EVERY events, not with
    // every write.
    const trim = batch.sinceTrim > 0 && (last || batch.sinceTrim >= TRIM_EVERY);
    if (events.length === 0 && !trim) return;
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
