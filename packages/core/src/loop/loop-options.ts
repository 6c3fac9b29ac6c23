import type { Catalogue } from '../catalogue/catalogue.js';
import type { HostedTool } from '../catalogue/hosted-tool.js';
import type { ResultContentLimits } from '../content/result-content-limits.js';
import type { ContextPolicy } from '../context/context-policy.js';
import type { ModelPrice } from '../cost/model-price.js';
import type { DataFlowOptions } from '../data-flow/data-flow-options.js';
import type { ConfirmationMode } from '../execute/execution-context.js';
import type { RepairToolCall } from '../execute/repair-call.js';
import type { ModelChoice } from '../fallback/one-model.js';
import type { Journal } from '../journal/journal.js';
import type { Message } from '../messages/messages.js';
import type { ToolChoice } from '../messages/model.js';
import type { ProviderOptions } from '../messages/provider-metadata.js';
import type { OutputOptions } from '../output/output-options.js';
import type { ProvenanceOptions } from '../provenance/provenance-options.js';
import type { SealOptions } from '../seal/seal-options.js';
import type { Session } from '../session/session.js';
import type { PrepareStep } from '../step/step-settings.js';
import type { StopCondition } from '../step/stop-condition.js';
import type { LoopHooks } from './loop-hooks.js';
import type { RetryPolicy } from './retry-policy.js';

export interface LoopOptions {
  /**
   * The model, or a fallback list `[primary, secondary, …]`: when one fails a turn with a retryable
   * `ProviderError` (after its SDK's retries and `retry`), the next answers the same turn, and the run goes on
   * (see `fallbackModel`, which also takes a policy).
   */
  readonly model: ModelChoice;
  readonly catalogue: Catalogue;
  /** Built by the application from its own authentication, never from model output. */
  readonly session: Session;
  /** The conversation so far (at least the user's message). */
  readonly messages: readonly Message[];
  readonly system?: string;
  /** Model turns allowed before the run stops with status `max_turns`. Default 10. */
  readonly maxTurns?: number;
  /** Calls of one turn run at most this many at a time. Default 16 (see `DEFAULT_CONCURRENCY`); 1 = one after the other. */
  readonly concurrency?: number;
  readonly toolTimeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Retries of failed model requests (see {@link RetryPolicy}); none by default. */
  readonly retry?: RetryPolicy;
  readonly journal?: Journal;
  /** Unconfirmed irreversible calls: `refuse` (default) tells the model; `pause` returns them to the app. */
  readonly confirmation?: ConfirmationMode;
  readonly hooks?: LoopHooks;
  readonly toolChoice?: ToolChoice;
  readonly parallelToolCalls?: boolean;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly providerOptions?: ProviderOptions;
  /** Size limits for images and files tools return; a part over them becomes the call's `isError` result. */
  readonly resultLimits?: ResultContentLimits;
  /**
   * Provenance tracking (on by default): untrusted tool output entering the run makes irreversible and
   * sensitive calls wait for a fresh, informed confirmation. `false` turns it off.
   */
  readonly provenance?: ProvenanceOptions | false;
  /**
   * Seal the states this run leaves (`PausedRun`, `InterruptedRun`) with an HMAC under the application's
   * key, and refuse, when resuming or continuing, a state whose seal does not check out or that has none.
   * Without it states are not sealed, and a sealed state is refused (it cannot be checked).
   */
  readonly seal?: SealOptions;
  /**
   * Data-flow options, each off unless given: trusted-only arguments (also declared by tools themselves,
   * `trustedOnly`), a plan frozen when untrusted content arrives, a quarantined reader. See {@link DataFlowOptions}.
   * They need provenance.
   */
  readonly dataFlow?: DataFlowOptions;
  /** Groups the journal entries of this run. Generated when absent. */
  readonly runId?: string;
  /**
   * The catalogue tools offered at every step (a subset, by name); absent: all of them. A call to a tool
   * not offered is refused (`inactive_tool`) and journaled, never run. `prepareStep` may change it per step.
   */
  readonly activeTools?: readonly string[];
  /** Changes the next model call's tools, tool choice, model or system text; see {@link PrepareStep}. */
  readonly prepareStep?: PrepareStep;
  /**
   * Ends the run (status `stopped`) when one holds between two steps, e.g.
   * `[toolCalled('submit'), callBudget(20), tokenBudget(50_000)]`. `maxTurns` still applies.
   */
  readonly stopWhen?: StopCondition | readonly StopCondition[];
  /**
   * Price rows of your own (your contract, a model the shipped `PRICE_TABLE` lacks), over the shipped ones:
   * what `LoopResult.cost`, the journal's cost notes and `costBudget` price each turn at.
   */
  readonly prices?: readonly ModelPrice[];
  /** Rewrites calls refused by the first two checks; see {@link RepairToolCall}. */
  readonly repairToolCall?: RepairToolCall;
  /** Tools the provider runs itself (`hostedTool('web_search')`, `providerTool({...})`), on every step. */
  readonly hostedTools?: readonly HostedTool[];
  /** Ask for the tool list to be cached where the provider takes a hint (Anthropic `cache_control`). */
  readonly cacheTools?: boolean;
  /**
   * Keeps each model request within a token budget on long runs: old tool results cleared, old turns folded
   * into a summary (see {@link ContextPolicy}). Only what is sent changes: the run's messages, its result, a
   * paused or interrupted run and the journal keep every result whole.
   */
  readonly contextPolicy?: ContextPolicy;
  /**
   * Ask for the run's final answer as a typed object (`result.output`), tools still allowed on the way: the
   * answer is requested in the provider's structured mode, validated with the tools' validator, corrected
   * once when it does not fit, then `OutputValidationError`. See {@link OutputOptions}.
   */
  readonly output?: OutputOptions;
}
