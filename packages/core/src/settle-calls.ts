import type { CallTask } from './call-tasks.js';
import { andThen, type Eventually } from './eventually.js';
import type { ExecutionOutcome } from './executor.js';
import type { CallEvent, LoopOptions } from './loop.js';
import { DEFAULT_CONCURRENCY } from './loop-defaults.js';
import { settleEach } from './settle-each.js';

export interface SettledCall {
  readonly outcome: ExecutionOutcome;
  readonly event: CallEvent;
}

/**
 * Answers the calls with the run's concurrency bound and hands each one to `deliver` as soon as it settles,
 * after the `onCall` hook has seen it: hooks fire one at a time, in settle order, while slower calls still
 * run. Synchronous when every call, hook and delivery answers at once (see `settleEach`).
 */
export function settleCalls(
  tasks: readonly CallTask[],
  turn: number,
  runId: string,
  options: Omit<LoopOptions, 'messages'>,
  deliver: ((settled: SettledCall) => Eventually<void>) | undefined,
  abandon?: () => void,
): Eventually<void> {
  const onCall = options.hooks?.onCall;
  const runs = tasks.map((task) => task.run);
  return settleEach(
    runs,
    options.concurrency ?? DEFAULT_CONCURRENCY,
    ({ index, value: outcome }) => {
      const task = tasks[index];
      // Nobody to tell: no event is made.
      if (task === undefined || (onCall === undefined && deliver === undefined)) return;
      const event = callEventOf(task, turn, runId, outcome);
      if (onCall === undefined) return deliver?.({ outcome, event });
      return andThen(onCall(event), () => deliver?.({ outcome, event }));
    },
    abandon,
  );
}

function callEventOf(task: CallTask, turn: number, runId: string, outcome: ExecutionOutcome): CallEvent {
  return {
    runId,
    turn,
    index: task.index,
    call: task.call,
    verdict: outcome.verdict,
    result: outcome.result,
    durationMs: outcome.durationMs,
    // Read through, not copied: the digest is hashed only if someone reads it (see `ExecutionOutcome`).
    get inputDigest(): string | null {
      return outcome.inputDigest;
    },
  };
}
