// The server's in-memory event log: bounded, honest about what it dropped, and numbered so that ids of an
// earlier log of the same run (a server before its restart, a log dropped over the bound) are never
// mistaken for ids of the new one. Synthetic events.
import type { LoopStreamEvent } from '@toolcircuit/core';
import { describe, expect, it } from 'vitest';
import { type LoggedEvent, RunEventLog } from '../src/events/run-event-log.js';

const turnStart = (turn: number): LoopStreamEvent => ({ type: 'turn-start', runId: 'run-1', turn });

function follow(log: RunEventLog, after: number) {
  const seen: { events: LoggedEvent[]; missed: number; stopped: boolean } = { events: [], missed: 0, stopped: false };
  const stop = log.follow('run-1', after, {
    gap: (missed) => {
      seen.missed += missed;
    },
    event: (event) => seen.events.push(event),
    stopped: () => {
      seen.stopped = true;
    },
  });
  return { seen, stop };
}

describe('run event log', () => {
  it('keeps the last events of a run and tells a reader from before them how many it missed', () => {
    const log = new RunEventLog(3, 10, () => 5);
    const emit = log.begin('run-1');
    for (let turn = 1; turn <= 5; turn += 1) emit(turnStart(turn));
    const { seen } = follow(log, 0);
    expect(seen.missed).toBe(2);
    expect(seen.events.map((event) => JSON.parse(event.data).turn)).toEqual([3, 4, 5]);
    expect(seen.events.map((event) => event.seq)).toEqual([5003, 5004, 5005]);
    // A reader that saw the second event missed only the first kept one's predecessor.
    expect(follow(log, 5001).seen.missed).toBe(1);
    expect(follow(log, 5003).seen).toMatchObject({ missed: 0, stopped: false });
  });

  it('a follower gets each new event once, then stopped when the last stretch ends', () => {
    const log = new RunEventLog(100, 10, () => 1);
    const first = log.begin('run-1');
    const second = log.begin('run-1');
    first(turnStart(1));
    const { seen } = follow(log, 0);
    second(turnStart(2));
    log.end('run-1');
    expect(seen.stopped).toBe(false);
    first(turnStart(3));
    log.end('run-1');
    expect(seen.stopped).toBe(true);
    expect(seen.events.map((event) => event.seq)).toEqual([1001, 1002, 1003]);
  });

  it('a log started again later numbers above every id the earlier one gave out', () => {
    let now = 1_000;
    const before = new RunEventLog(100, 1, () => now);
    const emit = before.begin('run-1');
    for (let turn = 1; turn <= 50; turn += 1) emit(turnStart(turn));
    before.end('run-1');
    const lastSeen = follow(before, 0).seen.events.at(-1)?.seq as number;

    now += 1;
    const restarted = new RunEventLog(100, 1, () => now);
    restarted.begin('run-1')(turnStart(51));
    const { seen } = follow(restarted, lastSeen);
    expect(seen.events.map((event) => JSON.parse(event.data).turn)).toEqual([51]);
    expect(seen.missed).toBe(0);
  });
});
