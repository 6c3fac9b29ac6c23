// The writer of run events, on the memory store: a turn's events go out in one write (when the next turn
// starts, or with the stretch's end), and a run keeps at most its bound of events across stretches.
import { createMemoryStore, type DurableStore } from '@toolcircuit/stores';
import { describe, expect, it } from 'vitest';
import { RunEventWriter } from '../src/events/run-event-writer.js';

function counted(store: DurableStore) {
  const writes: number[] = [];
  const append = store.appendRunEvents?.bind(store);
  if (append === undefined) throw new Error('the memory store keeps events');
  return {
    writes,
    store: {
      appendRunEvents: (request: Parameters<typeof append>[0]) => {
        writes.push(request.events.length);
        return append(request);
      },
    },
  };
}

const logged = (seq: number, type: string) => ({ seq, type, data: `{"type":"${type}","n":${seq}}` });

describe('RunEventWriter', () => {
  it("writes a turn's events together, when the next turn starts or with the stretch's end", async () => {
    const store = createMemoryStore();
    const { writes, store: counting } = counted(store);
    const writer = new RunEventWriter(counting, 100, (error) => {
      throw error;
    });
    const turn = ['turn-start', 'text-delta', 'text-delta', 'turn-end', 'call-verdict', 'tool-result', 'reply'];
    let seq = 0;
    for (const type of [...turn, ...turn, 'loop-end']) writer.add('run-1', logged(++seq, type));
    await writer.settle('run-1');
    // The first turn when the second starts; the second with the end, and the trim in the same write.
    expect(writes).toEqual([7, 8]);
    expect((await store.readRunEvents?.({ runId: 'run-1', afterSeq: 0, limit: 100 }))?.map((e) => e.seq)).toEqual(
      Array.from({ length: 15 }, (_, i) => i + 1),
    );
  });

  it('keeps at most its bound of events per run across stretches, the newest', async () => {
    const store = createMemoryStore();
    const { store: counting } = counted(store);
    const writer = new RunEventWriter(counting, 5, (error) => {
      throw error;
    });
    let seq = 0;
    for (let stretch = 0; stretch < 3; stretch += 1) {
      for (const type of ['turn-start', 'text-delta', 'turn-end', 'loop-end']) writer.add('run-1', logged(++seq, type));
      await writer.settle('run-1');
    }
    expect((await store.readRunEvents?.({ runId: 'run-1', afterSeq: 0, limit: 100 }))?.map((e) => e.seq)).toEqual([
      8, 9, 10, 11, 12,
    ]);
  });
});
