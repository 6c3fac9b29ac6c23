import type { ToolCallPart, ToolResultPart } from '../messages/messages.js';
import { type Attempt, digestOf } from './attempt.js';
import type { ExecutionOutcome } from './execution-outcome.js';
import type { Verdict } from './verdict.js';

/**
 * An outcome whose input digest is hashed only if someone reads it. The getter is an own, enumerable
 * property (so `{ ...outcome }` keeps the digest), defined from one shared descriptor: an object literal
 * with a getter costs about a microsecond to make, several times this.
 */
export class AnsweredCall implements ExecutionOutcome {
  readonly result: ToolResultPart;
  readonly verdict: Verdict;
  readonly durationMs: number;
  declare readonly inputDigest: string | null;
  declare readonly repairedCall?: ToolCallPart;
  readonly #attempt: Attempt;

  constructor(attempt: Attempt, result: ToolResultPart, verdict: Verdict, durationMs: number) {
    this.result = result;
    this.verdict = verdict;
    this.durationMs = durationMs;
    this.#attempt = attempt;
    Object.defineProperty(this, 'inputDigest', INPUT_DIGEST);
    if (attempt.repairOf !== undefined) Object.defineProperty(this, 'repairedCall', repaired(attempt.call));
  }

  static digestOf(outcome: AnsweredCall): string | null {
    return digestOf(outcome.#attempt);
  }
}

function repaired(call: ToolCallPart): PropertyDescriptor {
  return { enumerable: true, value: call };
}

const INPUT_DIGEST: PropertyDescriptor = {
  enumerable: true,
  get(this: AnsweredCall): string | null {
    return AnsweredCall.digestOf(this);
  },
};
