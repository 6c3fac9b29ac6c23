import type { Session } from '@toolcircuit/core';
import type { DurableStore } from '@toolcircuit/stores';
import { HttpProblem } from '../http/http-problem.js';
import { ownedRun } from '../runs/owned-run.js';
import type { EventFollower, LoggedEvent, RunEventLog } from './run-event-log.js';

const encoder = new TextEncoder();

/** How often a quiet stream sends a comment line. */
const KEEP_ALIVE_MS = 15_000;

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
        const follower: EventFollower = {
          gap: (missed) => send(frame(undefined, 'gap', JSON.stringify({ missed }))),
          event: (event: LoggedEvent) => send(frame(event.seq, event.type, event.data)),
          stopped: () => {
            // The status as the store has it now that the stretch is over (paused, completed, interrupted…).
            store.getRun(runId).then(
              (record) => {
                send(frame(undefined, 'end', JSON.stringify({ runId, status: record?.status ?? 'unknown' })));
                close();
              },
              () => close(),
            );
          },
        };
        // A comment first, so that the answer's head goes out at once (Node sends it with the first bytes),
        // even when nothing is logged yet.
        send(': events\n\n');
        // A reader that goes away stops following at once.
        request.signal.addEventListener('abort', close, { once: true });
        stop = log.follow(runId, after, follower);
        // `follow` may have told `stopped` already, before `stop` was known: nothing to unsubscribe then.
        if (!open) stop();
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
