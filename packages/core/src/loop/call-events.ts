import type { ExecutionOutcome } from '../execute/execution-outcome.js';
import type { Verdict } from '../execute/verdict.js';
import type { ToolCallPart, ToolResultPart } from '../messages/messages.js';
import type { CallTask } from './call-tasks.js';
import type { CallEvent } from './loop-hooks.js';
import type { LoopCallVerdictEvent } from './loop-stream-event.js';

// The events of a settled call read the input digest through, never copy it: it is hashed only if someone
// reads it. As on the outcome itself (`AnsweredCall`): an own enumerable getter (a spread keeps it) from one
// shared descriptor, since an object literal with a getter costs about a microsecond to make.
const INPUT_DIGEST: PropertyDescriptor = {
  enumerable: true,
  get(this: SettledCallEvent): string | null {
    return SettledCallEvent.digestOf(this);
  },
};

type DigestSource = { readonly inputDigest: string | null };

/** What `onCall` sees when a call has settled. */
export function callEventOf(task: CallTask, turn: number, runId: string, outcome: ExecutionOutcome): CallEvent {
  // A repaired call is reported as the call that was checked and answered (its journal entry has the original).
  return new SettledCallEvent(runId, turn, task.index, outcome.repairedCall ?? task.call, outcome);
}

/** The stream's event of a settled call. */
export function callVerdictEventOf(event: CallEvent): LoopCallVerdictEvent {
  return new CallVerdictEvent(event.runId, event.turn, event.index, event.call, event);
}

/**
 * The stream's event of a settled call when no `onCall` hook needs a call event of its own: made straight
 * from the outcome, one object per call instead of two. It is a call event too (plus `type`).
 */
export function callVerdictEventFrom(
  task: CallTask,
  turn: number,
  runId: string,
  outcome: ExecutionOutcome,
): LoopCallVerdictEvent {
  return new CallVerdictEvent(runId, turn, task.index, outcome.repairedCall ?? task.call, outcome);
}

class SettledCallEvent implements CallEvent {
  readonly runId: string;
  readonly turn: number;
  readonly index: number;
  readonly call: ToolCallPart;
  readonly verdict: Verdict;
  readonly result: ToolResultPart;
  readonly durationMs: number;
  declare readonly inputDigest: string | null;
  readonly #source: DigestSource;

  constructor(
    runId: string,
    turn: number,
    index: number,
    call: ToolCallPart,
    outcome: Pick<ExecutionOutcome, 'verdict' | 'result' | 'durationMs' | 'inputDigest'>,
  ) {
    this.runId = runId;
    this.turn = turn;
    this.index = index;
    this.call = call;
    this.verdict = outcome.verdict;
    this.result = outcome.result;
    this.durationMs = outcome.durationMs;
    this.#source = outcome;
    Object.defineProperty(this, 'inputDigest', INPUT_DIGEST);
  }

  static digestOf(event: SettledCallEvent): string | null {
    return event.#source.inputDigest;
  }
}

/** The same fields, plus the stream's `type`; the call event (or the outcome) serves as the digest's source. */
class CallVerdictEvent extends SettledCallEvent implements LoopCallVerdictEvent {
  readonly type = 'call-verdict';
}
