import type { Session } from '@toolcircuit/core';
import type { DurableStore, StoredRunEvent } from '@toolcircuit/stores';
import { HttpProblem } from '../http/http-problem.js';
import { ownedRun } from '../runs/owned-run.js';
import type { EventFollower, LoggedEvent, RunEventLog } from './run-event-log.js';

const encoder = new TextEncoder();

/** How often a quiet stream sends a comment line. */
const KEEP_ALIVE_MS = 15_000;
/** How often the store is read for the events of a run another process plays. */
export const POLL_MS = 250;
/** Stored events read per query. */
const PAGE = 1000;

type ReadRunEvents = NonNullable<DurableStore['readRunEvents']>;

/** Every stored event of the run after `after`, page by page. */
async function readAll(read: ReadRunEvents, runId: string, after: number): Promise<StoredRunEvent[]> {
  const all: StoredRunEvent[] = [];
  for (let from = after; ; ) {
    const page = await read({ runId, afterSeq: from, limit: PAGE });
    all.push(...page);
    const lastOfPage = page.at(-1);
    if (page.length < PAGE || lastOfPage === undefined) return all;
    from = lastOfPage.seq;
  }
}

/**
 * `GET /runs/:id/events`: the run's events as Server-Sent Events (`id: <seq>`, `event: <type>`,
 * `data: <json>`). First those logged after `Last-Event-ID` (or `?after=`), then each new one while this
 * server plays the run; when it stops, a last `end` event (no id) names the run's status and the stream
 * closes. A reader that reconnects with the id of the last event it got misses nothing and gets nothing twice.
 */
export class RunEventsRoute {
  readonly #store: DurableStore;
  readonly #log: RunEventLog;

  constructor(store: DurableStore, log: RunEventLog) {
    this.#store = store;
    this.#log = log;
  }

  async answer(runId: string, session: Session, request: Request): Promise<Response> {
    await ownedRun(this.#store, runId, session);
    const after = afterOf(request);
    const store = this.#store;
    const log = this.#log;
    const read = store.readRunEvents?.bind(store);
    // Ends following, whoever ends first: the run stopping, the reader going away, the runtime cancelling.
    let finish = (): void => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let open = true;
        let stop = (): void => {};
        const send = (text: string): void => {
          if (open) controller.enqueue(encoder.encode(text));
        };
        // Comment lines keep proxies from closing a stream that is quiet while a tool or a human takes long.
        const keepAlive = setInterval(() => send(': keep-alive\n\n'), KEEP_ALIVE_MS);
        keepAlive.unref?.();
        finish = (): void => {
          if (!open) return;
          open = false;
          clearInterval(keepAlive);
          stop();
        };
        const close = (): void => {
          if (!open) return;
          finish();
          controller.close();
        };
        // The last id sent: every event after it, and only those, goes out next.
        let last = after;
        // The type of the last event sent: a stretch's events end with `loop-end` (or `error`).
        let lastType = '';
        const sendStored = (events: readonly StoredRunEvent[]): void => {
          for (const event of events) {
            if (event.seq <= last) continue;
            last = event.seq;
            lastType = event.type;
            send(frame(event.seq, event.type, event.data));
          }
        };
        const sendEnd = (status: string): void => {
          send(frame(undefined, 'end', JSON.stringify({ runId, status })));
          close();
        };
        const follower: EventFollower = {
          gap: (missed) => send(frame(undefined, 'gap', JSON.stringify({ missed }))),
          event: (event: LoggedEvent) => {
            last = Math.max(last, event.seq);
            lastType = event.type;
            send(frame(event.seq, event.type, event.data));
          },
          stopped: () => {
            // Not (or no longer) played here: the status as the store has it now that the stretch is over
            // (paused, completed…), or, while another process of the store plays it, its stored events.
            afterStopped().then(sendEnd, () => close());
          },
        };
        const afterStopped = async (): Promise<string> => {
          for (let quiet = 0; ; ) {
            const record = await store.getRun(runId);
            const status = record?.status ?? 'unknown';
            if (read === undefined) return status;
            const events = await readAll(read, runId, last);
            sendStored(events);
            if (!open) return status;
            // Played elsewhere: follow its writes. Once it stopped, its last batch may land just after its
            // status: stop at the stretch's last event, or after two quiet polls.
            if (status !== 'resuming') {
              quiet = events.length === 0 ? quiet + 1 : 0;
              if (quiet >= 2 || lastType === 'loop-end' || lastType === 'error') return status;
            }
            await new Promise((resolve) => setTimeout(resolve, POLL_MS));
            if (!open) return status;
          }
        };
        // A comment first, so that the answer's head goes out at once (Node sends it with the first bytes),
        // even when nothing is logged yet.
        send(': events\n\n');
        // A reader that goes away stops following at once.
        request.signal.addEventListener('abort', close, { once: true });
        // What the store holds first (events of earlier lives of this server, or of other processes), then
        // this process's log after the last of them.
        const stored = read === undefined ? Promise.resolve() : readAll(read, runId, after).then(sendStored);
        stored.then(
          () => {
            if (!open) return;
            stop = log.follow(runId, last, follower);
            // `follow` may have told `stopped` already, before `stop` was known: nothing to unsubscribe then.
            if (!open) stop();
          },
          () => close(),
        );
      },
      cancel() {
        finish();
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      },
    });
  }
}

/** One SSE frame; the data is one line of JSON (JSON text holds no raw newline). */
function frame(id: number | undefined, type: string, data: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${type}\ndata: ${data}\n\n`;
}

/** The seq the reader saw last: `Last-Event-ID` (sent by a reconnecting `EventSource`), else `?after=`, else 0. */
function afterOf(request: Request): number {
  const raw = request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('after');
  if (raw === null || raw.trim() === '') return 0;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new HttpProblem(
      400,
      'invalid_event_id',
      `the last event id must be the whole number of an event of this run, as sent in "id:" (got "${raw.slice(0, 40)}").`,
    );
  }
  return value;
}
