import type { Eventually } from '../async/eventually.js';
import type { ExecutionContext } from '../execute/execution-context.js';
import type { ExecutionOutcome } from '../execute/execution-outcome.js';
import { answerCall, refuseCall } from '../execute/executor.js';
import type { ToolCallPart } from '../messages/messages.js';
import { repeatsAnEarlierId } from './unique-call-ids.js';

/** One call to answer: its position in the turn and how to answer it. */
export interface CallTask {
  readonly index: number;
  readonly call: ToolCallPart;
  readonly run: () => Eventually<ExecutionOutcome>;
}

/**
 * One task per call, in call order. A call listed in `incomplete` (cut off by max_tokens or a broken
 * stream) is refused (`incomplete_call`) and never run. Duplicate ids: the first call with an id runs, any
 * later call reusing it is refused (`duplicate_call_id`), so that every request still has exactly one result.
 */
export function callTasks(
  calls: readonly ToolCallPart[],
  incomplete: ReadonlySet<string>,
  cutByTokenLimit: boolean,
  context: ExecutionContext,
): CallTask[] {
  // The provider's ids of this turn's earlier calls: the loop made every id unique, so a repeat shows in
  // `originalId` (see `withUniqueCallIds`). Made only when a later call is to be checked against it: a turn
  // of one call (the usual case) needs no set.
  let seen: Set<string> | undefined;
  return calls.map((call, index) => {
    if (incomplete.has(call.id)) {
      const text = cutByTokenLimit ? tokenLimitText(call.name) : brokenStreamText(call.name);
      return { index, call, run: () => refuseCall(call, 'incomplete_call', text, context) };
    }
    if (seen !== undefined && (seen.has(call.id) || repeatsAnEarlierId(call, seen))) {
      return { index, call, run: () => refuseCall(call, 'duplicate_call_id', duplicateText(call), context) };
    }
    if (index < calls.length - 1) {
      seen ??= new Set();
      seen.add(call.originalId ?? call.id);
    }
    return { index, call, run: () => answerCall(call, context) };
  });
}

function tokenLimitText(name: string): string {
  return (
    `Your previous answer was cut off by the output token limit, so this call to "${name.slice(0, 80)}" may be ` +
    'incomplete and was not run. Call it again with complete arguments and keep the rest of your answer shorter.'
  );
}

function brokenStreamText(name: string): string {
  return (
    `The stream of your previous answer broke off before this call to "${name.slice(0, 80)}" was complete, so it ` +
    'was not run. Call it again with complete arguments if you still need it.'
  );
}

function duplicateText(call: ToolCallPart): string {
  const id = call.originalId ?? call.id;
  return (
    `This call reuses the id "${id.slice(0, 80)}" of an earlier call in the same turn, so it was not run. ` +
    'Give every call of a turn its own id, and call the tool again if you still need it.'
  );
}
