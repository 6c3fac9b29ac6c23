import type { LoopStreamEvent } from '@toolcircuit/core';
import { eventData } from './event-data.js';

/** One event of a run as it is served: its place in the run's log, its type and its JSON text. */
export interface LoggedEvent {
  readonly seq: number;
  readonly type: string;
  readonly data: string;
}

/** Who reads a run's log as it grows. */
export interface EventFollower {
  /** Events the log no longer holds (dropped over its bound) were asked for: `missed` of them. */
  gap(missed: number): void;
  event(event: LoggedEvent): void;
  /** The run stopped being played in this process: nothing follows until it is played again. */
  stopped(): void;
}

interface RunLog {
  readonly events: LoggedEvent[];
  /** Where its numbers start: its first event is `start + 1`. */
  readonly start: number;
  /** The seq of the last event appended (the log may have dropped it since). */
  last: number;
  /** Stretches of the run this process is playing now. */
  playing: number;
  readonly followers: Set<EventFollower>;
}

/**
 * A run's log, when this process starts one, numbers its events from the current time in microseconds: above
 * every id an earlier log of the run handed out (in a server that ran before a restart, or before the log
 * was dropped over its bound), unless that log numbered more than a thousand events per millisecond of its
 * age. So a reader reconnecting with such an id gets every event of the new log, and none is taken for seen.
 */
const IDS_PER_MS = 1000;

export const DEFAULT_MAX_EVENTS_PER_RUN = 10_000;
export const DEFAULT_MAX_LOGGED_RUNS = 1_000;

/**
 * The events of the runs this process plays, per run, numbered in the order the loop emitted them (see
 * `IDS_PER_MS` for where the numbers start), so that a reader can ask for what came after the last event it saw. Kept in memory and bounded: a run
 * keeps its last `maxEventsPerRun` events, and of the runs not being played, the most recently played
 * `maxRuns` are kept. A server started again begins with an empty log, numbered above the ids of the last one.
 */
export class RunEventLog {
  readonly #runs = new Map<string, RunLog>();
  readonly #maxEventsPerRun: number;
  readonly #maxRuns: number;

  readonly #now: () => number;

  constructor(maxEventsPerRun = DEFAULT_MAX_EVENTS_PER_RUN, maxRuns = DEFAULT_MAX_LOGGED_RUNS, now = Date.now) {
    this.#maxEventsPerRun = maxEventsPerRun;
    this.#maxRuns = maxRuns;
    this.#now = now;
  }

  /**
   * A stretch of the run starts: the listener it hands to the runner appends each event (and hands it to
   * `tap`, which writes it to the store).
   */
  begin(runId: string, tap?: (event: LoggedEvent) => void): (event: LoopStreamEvent) => void {
    const log = this.#logOf(runId);
    log.playing += 1;
    return (event) => {
      const logged = this.#append(log, event);
      tap?.(logged);
    };
  }

  /** The seq this process's log of the run gave out last, if it has one. */
  lastSeq(runId: string): number | undefined {
    return this.#runs.get(runId)?.last;
  }

  /**
   * Numbers the run's next events from the current time (see `IDS_PER_MS`), above `seq`: another process
   * played the run since this log's last event, and its ids (from its own start time) are above ours.
   */
  numberAbove(runId: string, seq: number): void {
    const log = this.#runs.get(runId);
    if (log !== undefined) log.last = Math.max(log.last, seq, this.#now() * IDS_PER_MS);
  }

  /** A stretch of the run ended; once none is left, its followers are told. */
  end(runId: string): void {
    const log = this.#runs.get(runId);
    if (log === undefined) return;
    log.playing = Math.max(0, log.playing - 1);
    if (log.playing > 0) return;
    for (const follower of [...log.followers]) follower.stopped();
    log.followers.clear();
    this.#evict();
  }

  /**
   * Hands `follower` the events after `after` at once, then (while the run is played here) each new one as
   * it is appended, then `stopped`. Synchronous, so nothing is appended between the two: no event is lost or
   * given twice. Returns what stops following.
   */
  follow(runId: string, after: number, follower: EventFollower): () => void {
    const log = this.#runs.get(runId);
    if (log === undefined) {
      follower.stopped();
      return () => {};
    }
    // Events dropped over the bound that the reader has not seen.
    const first = log.events[0]?.seq ?? log.last + 1;
    const missed = first - 1 - Math.max(after, log.start);
    if (missed > 0) follower.gap(missed);
    for (const event of log.events) if (event.seq > after) follower.event(event);
    if (log.playing === 0) {
      follower.stopped();
      return () => {};
    }
    log.followers.add(follower);
    return () => log.followers.delete(follower);
  }

  #append(log: RunLog, event: LoopStreamEvent): LoggedEvent {
    log.last += 1;
    const logged: LoggedEvent = { seq: log.last, type: event.type, data: JSON.stringify(eventData(event)) };
    log.events.push(logged);
    if (log.events.length > this.#maxEventsPerRun) log.events.shift();
    for (const follower of log.followers) follower.event(logged);
    return logged;
  }

  #logOf(runId: string): RunLog {
    const known = this.#runs.get(runId);
    if (known !== undefined) {
      // Played again: the most recent run again in the eviction order.
      this.#runs.delete(runId);
      this.#runs.set(runId, known);
      return known;
    }
    const start = this.#now() * IDS_PER_MS;
    const log: RunLog = { events: [], start, last: start, playing: 0, followers: new Set() };
    this.#runs.set(runId, log);
    return log;
  }

  /** Drops the logs of the least recently played runs that nobody plays, over the bound. */
  #evict(): void {
    let over = this.#runs.size - this.#maxRuns;
    for (const [runId, log] of this.#runs) {
      if (over <= 0) return;
      if (log.playing > 0) continue;
      this.#runs.delete(runId);
      over -= 1;
    }
  }
}
