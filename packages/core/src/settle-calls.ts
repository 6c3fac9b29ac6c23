import type { CallTask } from './call-tasks.js';
import type { ExecutionOutcome } from './executor.js';
import type { CallEvent, LoopOptions } from './loop.js';
import { DEFAULT_CONCURRENCY } from './loop-defaults.js';
import { settleEach } from './settle-each.js';

export interface SettledCall {
  readonly outcome: ExecutionOutcome;
  readonly event: CallEvent;
}

/**
 * Answers the calls with the run's concurrency bound and yields each one as soon as it settles, after the
 * `onCall` hook has seen it: hooks fire one at a time, in settle order, while slower calls still run.
 */
export async function* settleCalls(
  tasks: readonly CallTask[],
  turn: number,
  runId: string,
  options: Omit<LoopOptions, 'messages'>,
  abandon?: () => void,
): AsyncGenerator<SettledCall, void, undefined> {
  const runs = tasks.map((task) => task.run);
  for await (const { index, value: outcome } of settleEach(runs, options.concurrency ?? DEFAULT_CONCURRENCY, abandon)) {
    const task = tasks[index];
    if (task === undefined) continue;
    const event: CallEvent = {
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
    await options.hooks?.onCall?.(event);
    yield { outcome, event };
  }
}
