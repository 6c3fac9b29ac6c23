import { canonicalCopy } from '../json/canonical-copy.js';
import type { JsonValue } from '../json/json.js';
import type { ToolCallPart } from '../messages/messages.js';
import { type Attempt, journalInputOf, startAttempt } from './attempt.js';
import type { JournalRepair, RepairProblem } from './repair-call.js';

/**
 * The attempt for a call the hook rewrote, or why what it returned cannot be one. Read defensively: the hook
 * may return anything (a getter that throws, a cycle, a non-object input). The call keeps its id, so the
 * result still pairs with what the model asked; it keeps the original start time for its duration.
 */
export function repairedAttempt(original: Attempt, problem: RepairProblem, returned: unknown): Attempt | string {
  let name: unknown;
  let input: unknown;
  try {
    if (typeof returned !== 'object' || returned === null)
      return `the repair hook returned ${typeof returned}, not { name, input }`;
    name = (returned as { name?: unknown }).name;
    input = (returned as { input?: unknown }).input;
  } catch {
    return 'the repair hook returned an object that cannot be read';
  }
  if (typeof name !== 'string' || name === '') return 'the repair hook returned no tool name';
  let copy: JsonValue;
  try {
    copy = canonicalCopy(input).copy;
  } catch {
    return 'the repair hook returned an input that is not JSON data';
  }
  if (copy === null || typeof copy !== 'object' || Array.isArray(copy)) {
    return 'the repair hook returned an input that is not a JSON object';
  }
  const { call } = original;
  const repaired: ToolCallPart = {
    type: 'tool_call',
    id: call.id,
    name,
    input: copy,
    ...(call.originalId === undefined ? {} : { originalId: call.originalId }),
    ...(call.providerMetadata === undefined ? {} : { providerMetadata: call.providerMetadata }),
  };
  return {
    ...startAttempt(repaired, original.context),
    runId: original.runId,
    at: original.at,
    startedAt: original.startedAt,
    repairOf: { attempt: original, problem },
  };
}

/** The journal's `repair` field of an attempt, when the hook was asked about it. */
export function journalRepairOf(attempt: Attempt): { repair?: JournalRepair } {
  if (attempt.repairNote !== undefined) return { repair: attempt.repairNote };
  const repairOf = attempt.repairOf;
  if (repairOf === undefined) return {};
  const { call } = repairOf.attempt;
  const keepRaw = call.rawInput !== undefined && call.inputError !== undefined;
  return {
    repair: {
      problem: repairOf.problem,
      outcome: 'repaired',
      original: {
        toolName: String(call.name),
        input: journalInputOf(repairOf.attempt),
        ...(keepRaw ? { rawInput: call.rawInput } : {}),
      },
    },
  };
}
