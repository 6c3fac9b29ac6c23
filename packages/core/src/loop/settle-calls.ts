import { andThen, type Eventually } from '../async/eventually.js';
import { settleEach } from '../async/settle-each.js';
import type { ExecutionOutcome } from '../execute/execution-outcome.js';
import { callEventOf, callVerdictEventFrom } from './call-events.js';
import type { CallTask } from './call-tasks.js';
import { DEFAULT_CONCURRENCY } from './loop-defaults.js';
import type { CallEvent } from './loop-hooks.js';
import type { LoopOptions } from './loop-options.js';
import type { LoopCallVerdictEvent } from './loop-stream-event.js';

export interface SettledCall {
  readonly outcome: ExecutionOutcome;
  /** Without an `onCall` hook, the stream's verdict event itself (a call event with a `type`). */
  readonly event: CallEvent | LoopCallVerdictEvent;
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
    // Recorded under the call's position in its turn (the task's place in the list, for a whole turn's).
    record:
      record === undefined || inPlace(tasks)
        ? record
        : (index, outcome) => record(tasks[index]?.index ?? index, outcome),
    // Nobody to tell: no event is made, and nothing is queued for delivery.
    deliver:
      onCall === undefined && deliver === undefined
        ? undefined
        : (index, outcome) => {
            const task = tasks[index];
            if (task === undefined) return;
            // Only a stream delivers without the hook: one event object, the verdict event it emits.
            if (onCall === undefined)
              return deliver?.({ outcome, event: callVerdictEventFrom(task, turn, runId, outcome) });
            const event = callEventOf(task, turn, runId, outcome);
            return andThen(onCall(event), () => deliver?.({ outcome, event }));
          },
  });
}

/** Whether each task sits at its call's position (a whole turn's tasks do): no index to translate. */
function inPlace(tasks: readonly CallTask[]): boolean {
  for (let index = 0; index < tasks.length; index += 1) if (tasks[index]?.index !== index) return false;
  return true;
}
