import { randomUUID } from 'node:crypto';
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/**
 * The SSE events of one MCP session, kept in memory so a client whose stream closed (the network, or a tool
 * that asked it to poll) reconnects with `Last-Event-ID` and gets what it missed, on that stream only. One
 * store per session: an event id from another session is unknown here, so no client can replay another's
 * events. The oldest events go first past `maxEvents`; a reconnect from before them gets only what is left.
 */
export class SessionEventStore implements EventStore {
  readonly #events = new Map<EventId, { readonly streamId: StreamId; readonly message: JSONRPCMessage }>();
  readonly #prefix = randomUUID();
  readonly #maxEvents: number;
  #next = 0;

  constructor(maxEvents: number) {
    this.#maxEvents = maxEvents;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const eventId = `${this.#prefix}-${this.#next++}`;
    this.#events.set(eventId, { streamId, message });
    if (this.#events.size > this.#maxEvents) {
      const oldest = this.#events.keys().next().value;
      if (oldest !== undefined) this.#events.delete(oldest);
    }
    return eventId;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.#events.get(lastEventId);
    if (last === undefined) throw new Error('Unknown event id');
    let after = false;
    for (const [eventId, event] of this.#events) {
      if (eventId === lastEventId) after = true;
      // Priming events carry no message (an empty object): nothing to replay.
      else if (after && event.streamId === last.streamId && Object.keys(event.message).length > 0) {
        await send(eventId, event.message);
      }
    }
    return last.streamId;
  }
}
