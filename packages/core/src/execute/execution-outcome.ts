import type { ToolCallPart, ToolResultPart } from '../messages/messages.js';
import type { Verdict } from './verdict.js';

export interface ExecutionOutcome {
  /** Always present, also for refusals and failures (`isError: true`): the model is told, nothing is thrown. */
  readonly result: ToolResultPart;
  readonly verdict: Verdict;
  readonly durationMs: number;
  /** SHA-256 of the input's canonical JSON (`null` when the provider sent no parsable input). */
  readonly inputDigest: string | null;
  /**
   * The call as the repair hook rewrote it (same id), when it did: this is the call that was checked and
   * answered, and the loop puts it in the conversation in place of the original (kept in the journal).
   */
  readonly repairedCall?: ToolCallPart;
}
