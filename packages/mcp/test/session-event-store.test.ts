import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { SessionEventStore } from '../src/session-event-store.js';

const note = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });

async function replay(store: SessionEventStore, after: string): Promise<unknown[]> {
  const sent: unknown[] = [];
  await store.replayEventsAfter(after, {
    send: async (_id, message) => {
      sent.push((message as { params?: unknown }).params);
    },
  });
  return sent;
}

describe('SessionEventStore', () => {
  it("replays what followed an event on that event's stream only, without priming events", async () => {
    const store = new SessionEventStore(100);
    const primed = await store.storeEvent('call-1', {} as JSONRPCMessage);
    await store.storeEvent('call-1', note(1));
    await store.storeEvent('call-2', note(99));
    await store.storeEvent('call-1', note(2));
    expect(await replay(store, primed)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await store.getStreamIdForEventId(primed)).toBe('call-1');
  });

  it('keeps the last maxEvents events; an id from before them, or from another store, is unknown', async () => {
    const store = new SessionEventStore(3);
    const first = await store.storeEvent('s', note(1));
    const second = await store.storeEvent('s', note(2));
    await store.storeEvent('s', note(3));
    await store.storeEvent('s', note(4));
    expect(await store.getStreamIdForEventId(first)).toBeUndefined();
    await expect(replay(store, first)).rejects.toThrow(/Unknown event id/);
    expect(await replay(store, second)).toEqual([{ n: 3 }, { n: 4 }]);
    const other = new SessionEventStore(3);
    expect(await other.getStreamIdForEventId(second)).toBeUndefined();
  });
});
