import type { Session } from '@toolcircuit/core';
import type { DurableStore, RunRecord, RunStatus } from '@toolcircuit/stores';
import type { RunRoutes } from '../runs/run-routes.js';
import { pendingOf } from '../runs/run-view.js';
import { approvalIdOf } from './approval-id.js';
import { EventQueue } from './event-queue.js';
import { parseChatRequest } from './parse-chat-request.js';
import { type UiChunk, UiChunkWriter } from './ui-chunk-writer.js';

const encoder = new TextEncoder();

/** The type of the data part that carries a pending call's informed request (`data-toolcircuit-approval`). */
export const APPROVAL_DATA_TYPE = 'data-toolcircuit-approval';

/** How a stretch of a run ended, as the `finish` chunk says it. */
function finishReason(status: RunStatus | undefined): string {
  if (status === 'completed') return 'stop';
  if (status === 'paused') return 'tool-calls';
  if (status === 'interrupted' || status === undefined) return 'error';
  return 'other';
}

/**
 * `POST /chat`: the AI SDK's `useChat` drives durable runs. A user message starts the chat's next run; the
 * answer is the UI message stream (SSE `data:` chunks, header `x-vercel-ai-ui-message-stream: v1`) of the run
 * until it stops. A call held for its human ends the stream with the informed request (a
 * `data-toolcircuit-approval` part) and a `tool-approval-request` whose id binds the decision to the digests
 * shown; the responses `addToolApprovalResponse` sends back go through the same checks and the same atomic
 * claim as `POST /runs/:id/decisions`, and the continuation streams into the same assistant message.
 * Everything that can be refused (body, run, digests, a decision that lost the claim) is answered with the
 * server's JSON errors before the stream starts.
 */
export class ChatRoute {
  readonly #routes: RunRoutes;
  readonly #store: DurableStore;

  constructor(routes: RunRoutes, store: DurableStore) {
    this.#routes = routes;
    this.#store = store;
  }

  /** `report` is told of a failure of the run's stretch once the stream has begun (its answer is sent). */
  async answer(session: Session, body: unknown, report: (error: unknown) => void): Promise<Response> {
    const chat = parseChatRequest(body);
    const events = new EventQueue();
    let runId: string;
    let writer: UiChunkWriter;
    let done: Promise<void>;
    if (chat.kind === 'start') {
      ({ runId, done } = this.#routes.startRun(session, chat.messages, events.push));
      writer = new UiChunkWriter();
    } else {
      runId = chat.runId;
      const decided = await this.#routes.decideRun(runId, session, chat.decisions, events.push);
      done = decided.done;
      // The decided calls' parts are in the message this stream continues.
      writer = new UiChunkWriter(decided.pending);
    }
    // A decision that lost the run's claim to another (two tabs) fails before the loop says anything:
    // answered as the decisions route answers it, not as a stream.
    await Promise.race([events.first, done]);
    return this.#stream(chat.chatId, runId, chat.kind === 'start', writer, events, done, report);
  }

  #stream(
    chatId: string,
    runId: string,
    fresh: boolean,
    writer: UiChunkWriter,
    events: EventQueue,
    done: Promise<void>,
    report: (error: unknown) => void,
  ): Response {
    const store = this.#store;
    let open = true;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (chunk: UiChunk): void => {
          if (open) controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
        };
        send({ type: 'start', ...(fresh ? { messageId: runId } : {}), messageMetadata: { runId } });
        let failed = false;
        const stopped = done.then(
          () => undefined,
          (error: unknown) => {
            failed = true;
            report(error);
          },
        );
        for (;;) {
          const event = await Promise.race([events.next(), stopped.then(() => undefined)]);
          if (event === undefined) break;
          for (const chunk of writer.of(event)) send(chunk);
        }
        // The stretch ended: what it logged after the race, then how it stopped.
        for (const event of events.drain()) for (const chunk of writer.of(event)) send(chunk);
        for (const chunk of writer.close()) send(chunk);
        const record = failed ? undefined : await store.getRun(runId).catch(() => undefined);
        if (record === undefined) {
          send({ type: 'error', errorText: 'the server failed to play the run; read it again later.' });
        } else {
          for (const chunk of approvalChunks(chatId, record)) send(chunk);
        }
        send({
          type: 'finish',
          finishReason: finishReason(record?.status),
          messageMetadata: { runId, status: record?.status ?? 'unknown' },
        });
        if (!open) return; // cancelled by the reader: nothing more to close
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        open = false;
        controller.close();
      },
      cancel() {
        // The page went away (stop(), a closed tab): the run goes on to where it stops, as runs do.
        open = false;
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        'x-vercel-ai-ui-message-stream': 'v1',
      },
    });
  }
}

/** For each call the run waits on: its informed request as a data part, then the approval request. */
function approvalChunks(chatId: string, record: RunRecord): UiChunk[] {
  return pendingOf(record).flatMap((approval) => {
    const approvalId = approvalIdOf(chatId, approval);
    return [
      { type: APPROVAL_DATA_TYPE, id: approvalId, data: { ...approval, approvalId } },
      { type: 'tool-approval-request', approvalId, toolCallId: approval.callId },
    ];
  });
}
