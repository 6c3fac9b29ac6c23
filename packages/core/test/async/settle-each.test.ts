import { describe, expect, it } from 'vitest';
import { isPromiseLike } from '../../src/async/eventually.js';
import { type Settled, settleEach } from '../../src/async/settle-each.js';
import { deferred, settle } from '../support.js';

describe('settleEach', () => {
  it('settles a list of immediate answers synchronously, in order, with no promise', () => {
    const seen: Settled<string>[] = [];
    const result = settleEach(
      ['a', 'b', 'c'].map((value) => () => value),
      2,
      {
        deliver: (index, value) => {
          seen.push({ index, value });
        },
      },
    );
    expect(isPromiseLike(result)).toBe(false);
    expect(seen).toEqual([
      { index: 0, value: 'a' },
      { index: 1, value: 'b' },
      { index: 2, value: 'c' },
    ]);
  });

  it('keeps at most `bound` tasks waiting, delivers in settle order, and starts the next as a slot frees', async () => {
    const gates = [deferred<string>(), deferred<string>(), deferred<string>()];
    const started: number[] = [];
    const seen: number[] = [];
    const done = settleEach(
      gates.map((gate, index) => () => {
        started.push(index);
        return gate.promise;
      }),
      2,
      {
        deliver: (index) => {
          seen.push(index);
        },
      },
    );
    expect(started).toEqual([0, 1]);
    gates[1]?.resolve('b');
    await settle();
    expect(seen).toEqual([1]);
    expect(started).toEqual([0, 1, 2]);
    gates[2]?.resolve('c');
    gates[0]?.resolve('a');
    await done;
    expect(seen).toEqual([1, 2, 0]);
  });

  it('without a delivery: records each result as it settles, at most `bound` waiting, synchronous ones at once', async () => {
    const gates = [deferred<string>(), deferred<string>(), deferred<string>()];
    const started: number[] = [];
    const recorded: Settled<string>[] = [];
    const record = (index: number, value: string) => recorded.push({ index, value });
    expect(isPromiseLike(settleEach([() => 'now'], 2, { deliver: undefined, record }))).toBe(false);
    recorded.length = 0;
    const tasks = [
      ...gates.map((gate, index) => () => {
        started.push(index);
        return gate.promise;
      }),
      () => {
        started.push(3);
        return 'at once';
      },
    ];
    let finished = false;
    const done = Promise.resolve(settleEach(tasks, 2, { deliver: undefined, record })).then(() => {
      finished = true;
    });
    expect(started).toEqual([0, 1]);
    gates[1]?.resolve('b');
    await settle();
    expect(started).toEqual([0, 1, 2]);
    gates[0]?.resolve('a');
    await settle();
    // The freed slot ran the synchronous task at once; the last waiting one still holds the run open.
    expect(started).toEqual([0, 1, 2, 3]);
    expect(finished).toBe(false);
    gates[2]?.resolve('c');
    await done;
    expect(recorded).toEqual([
      { index: 1, value: 'b' },
      { index: 0, value: 'a' },
      { index: 3, value: 'at once' },
      { index: 2, value: 'c' },
    ]);
  });

  it('without a delivery, when only the last task waits: records it once it settles, and rejects with its error', async () => {
    const gate = deferred<string>();
    const recorded: Settled<string>[] = [];
    const record = (index: number, value: string) => recorded.push({ index, value });
    const done = settleEach([() => 'a', () => 'b', () => gate.promise], 4, { deliver: undefined, record });
    expect(isPromiseLike(done)).toBe(true);
    let finished = false;
    const watched = Promise.resolve(done).then(() => {
      finished = true;
    });
    await settle();
    // The earlier tasks answered at once and are recorded; the run is held open by the last one only.
    expect(recorded).toEqual([
      { index: 0, value: 'a' },
      { index: 1, value: 'b' },
    ]);
    expect(finished).toBe(false);
    gate.resolve('c');
    await watched;
    expect(recorded.at(-1)).toEqual({ index: 2, value: 'c' });

    const failing = settleEach([() => Promise.reject(new Error('tool store down'))], 4, {
      deliver: undefined,
      record,
    });
    await expect(failing).rejects.toThrow('tool store down');
    expect(recorded).toHaveLength(3);
  });

  it.each([
    ['with a delivery', () => {}],
    ['without one', undefined],
  ])(
    'a task that throws (%s): nothing more starts, the running ones finish, then the first error is thrown',
    async (_, deliver) => {
      const slow = deferred<string>();
      const started: number[] = [];
      let slowFinished = false;
      const tasks = [
        () => {
          started.push(0);
          return slow.promise.then((value) => {
            slowFinished = true;
            return value;
          });
        },
        () => {
          started.push(1);
          return Promise.reject(new Error('journal down'));
        },
        () => {
          started.push(2);
          return 'never';
        },
      ];
      const recorded: number[] = [];
      const done = settleEach(tasks, 2, { deliver, record: (index) => recorded.push(index) });
      await settle();
      expect(slowFinished).toBe(false);
      slow.resolve('late');
      await expect(done).rejects.toThrow('journal down');
      expect(slowFinished).toBe(true);
      expect(started).toEqual([0, 1]);
      // The failed task is not recorded; the one that finished late is, though nobody delivers it.
      expect(recorded).toEqual([0]);
    },
  );

  it('a delivery that throws: abandon first, nothing more starts, running tasks are awaited, then the throw', async () => {
    const slow = [deferred<string>(), deferred<string>()];
    const events: string[] = [];
    const waiting = (index: number) => () => {
      events.push(`start ${index}`);
      return (slow[index === 0 ? 0 : 1] as { promise: Promise<string> }).promise.then((value) => {
        events.push(`settled ${index}`);
        return value;
      });
    };
    const tasks = [
      waiting(0),
      () => {
        events.push('start 1');
        return Promise.resolve('quick');
      },
      // Starts when task 1 frees its slot, before task 1 is delivered.
      waiting(2),
      () => {
        events.push('start 3');
        return 'never';
      },
    ];
    const done = settleEach(tasks, 2, {
      deliver: (index) => {
        events.push(`deliver ${index}`);
        throw new Error('reader stopped');
      },
      abandon: () => {
        events.push('abandon');
        for (const gate of slow) gate.resolve('aborted');
      },
    });
    await expect(done).rejects.toThrow('reader stopped');
    expect(events).toEqual(['start 0', 'start 1', 'start 2', 'deliver 1', 'abandon', 'settled 0', 'settled 2']);
  });

  it('a synchronous delivery throw stops at once, before later tasks start', () => {
    const started: number[] = [];
    let abandoned = 0;
    expect(() =>
      settleEach(
        [0, 1, 2].map((index) => () => {
          started.push(index);
          return index;
        }),
        4,
        {
          deliver: () => {
            throw new Error('hook failed');
          },
          abandon: () => {
            abandoned += 1;
          },
        },
      ),
    ).toThrow('hook failed');
    expect(started).toEqual([0]);
    expect(abandoned).toBe(1);
  });
});
