import type { ToolResultPart } from '../messages/messages.js';
import type { Verdict } from './verdict.js';

export interface ExecutionOutcome {
  /** Always present, also for refusals and failures (`isError: true`): the model is told, nothing is thrown. */
  readonly result: ToolResultPart;
  readonly verdict: Verdict;
  readonly durationMs: number;
  /** SHA-256 of the input's canonical JSON (`null` when the provider sent no parsable input). */
  readonly inputDigest: string | null;
}
