import { andThen, type Eventually } from '../async/eventually.js';
import { settleEach } from '../async/settle-each.js';
import type { ExecutionOutcome } from '../execute/execution-outcome.js';
import { callEventOf } from './call-events.js';
import type { CallTask } from './call-tasks.js';
import { DEFAULT_CONCURRENCY } from './loop-defaults.js';
import type { CallEvent } from './loop-hooks.js';
import type { LoopOptions } from './loop-options.js';

export interface SettledCall {
  readonly outcome: ExecutionOutcome;
  readonly event: CallEvent;
}

/**
 * Answers the calls with the run's concurrency bound and hands each one to `deliver` as soon as it settles,
 * after the `onCall` hook has seen it: hooks fire one at a time, in settle order, while slower calls still
 * run; `record` sees each outcome the moment it settles, delivered or not. Synchronous when every call, hook
 * and delivery answers at once (see `settleEach`).
 */
export function settleCalls(
  tasks: readonly CallTask[],
  turn: number,
  runId: string,
  options: Omit<LoopOptions, 'messages'>,
  deliver: ((settled: SettledCall) => Eventually<void>) | undefined,
  abandon?: () => void,
  record?: (index: number, outcome: ExecutionOutcome) => void,
): Eventually<void> {
  const onCall = options.hooks?.onCall;
  const runs = tasks.map((task) => task.run);
  return settleEach(runs, options.concurrency ?? DEFAULT_CONCURRENCY, {
    abandon,
    // Recorded under the call's position in its turn.
    record: record === undefined ? undefined : (index, outcome) => record(tasks[index]?.index ?? index, outcome),
    // Nobody to tell: no event is made, and nothing is queued for delivery.
    deliver:
      onCall === undefined && deliver === undefined
        ? undefined
        : (index, outcome) => {
            const task = tasks[index];
            if (task === undefined) return;
            const event = callEventOf(task, turn, runId, outcome);
            if (onCall === undefined) return deliver?.({ outcome, event });
            return andThen(onCall(event), () => deliver?.({ outcome, event }));
          },
  });
}
