import type { RunCost } from '../cost/run-cost.js';
import type { Message } from '../messages/messages.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { Usage } from '../messages/usage.js';
import type { OutputRefusal } from '../output/output-options.js';
import type { TaintSourceRef } from '../provenance/taint-source.js';
import type { PausedRun } from './paused-run.js';

/**
 * - `completed`: the model answered without tool calls (a turn the provider only paused, stop reason `pause`,
 *   is sent back to continue rather than taken for the answer).
 * - `max_turns`: the turn limit was reached; the last turn's results are in `messages`, so it can be continued.
 * - `paused`: irreversible calls await the human (confirmation mode `pause`); see `paused`.
 * - `aborted`: the signal fired. Calls already requested still have a result in `messages`.
 * - `stopped`: a `stopWhen` condition held between two steps (`stoppedBy` names it); like `max_turns`, the
 *   last turn's results are in `messages`, so it can be continued.
 *
 * A provider error (`ProviderError` thrown by the model) is not a model mistake and is rethrown, except when
 * it happens because the signal fired, which is reported as `aborted`.
 */
export type LoopStatus = 'completed' | 'max_turns' | 'paused' | 'aborted' | 'stopped';

/** `Output`: the type of `output`, inferred from the loop's `output.schema` (`unknown` without one). */
export interface LoopResult<Output = unknown> {
  readonly status: LoopStatus;
  readonly runId: string;
  /** The whole conversation: the initial messages, then every assistant turn and its tool reply. */
  readonly messages: readonly Message[];
  readonly turns: readonly ModelTurn[];
  /** Summed over all turns. */
  readonly usage: Usage;
  /**
   * What each turn cost, at the price of the model that answered it (`LoopOptions.prices` over the shipped
   * `PRICE_TABLE`), and the run's total: `unknown` (with why) for a model without a price, never zero.
   */
  readonly cost: RunCost;
  /** The text of the last model turn. */
  readonly text: string;
  readonly paused?: PausedRun;
  /** For status `stopped`: the name of the stop condition that held (e.g. `toolCalled(submit)`). */
  readonly stoppedBy?: string;
  /** Untrusted results that entered the run, in order (absent when provenance is off). */
  readonly untrustedSources?: readonly TaintSourceRef[];
  /**
   * With the `output` option: the final answer, parsed and validated against `output.schema` (status
   * `completed`, no refusal). Absent otherwise; an answer that never fitted throws `OutputValidationError`.
   */
  readonly output?: Output;
  /** With the `output` option: the model refused to answer (status `completed`, no `output`). */
  readonly refusal?: OutputRefusal;
}
