import type { ToolStartEvent } from '../execute/execution-context.js';
import type { Verdict } from '../execute/verdict.js';
import type { ToolCallPart, ToolMessage, ToolResultPart } from '../messages/messages.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { TaintSource } from '../provenance/taint-source.js';
import type { StepPlan } from '../step/step-settings.js';

export interface TurnEvent {
  readonly runId: string;
  readonly turn: number;
  readonly modelTurn: ModelTurn;
  /** The step's plan, for runs that plan per step (`prepareStep`, `activeTools`). */
  readonly plan?: StepPlan;
}

export interface CallEvent {
  readonly runId: string;
  readonly turn: number;
  /** The call's position in its turn (calls settle in any order when they run concurrently). */
  readonly index: number;
  readonly call: ToolCallPart;
  readonly verdict: Verdict;
  readonly result: ToolResultPart;
  readonly durationMs: number;
  readonly inputDigest: string | null;
}

export interface ResultEvent {
  readonly runId: string;
  readonly turn: number;
  readonly message: ToolMessage;
  /**
   * The run's untrusted sources once this reply is in the conversation, with their texts (absent when
   * provenance is off; listed on first read): what a durable store keeps with the conversation, so that a
   * run it continues after a crash gates what the run gated.
   */
  readonly untrustedSources?: readonly TaintSource[];
}

export interface RetryEvent {
  readonly runId: string;
  readonly turn: number;
  /** The attempt that failed (1 for the first request of the turn). */
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: Error;
}

/**
 * Observers of each step. They are awaited, one at a time. `onCall` fires once per call as soon as that call
 * has settled (so an application can show verdicts live), in settle order, which is call order only when the
 * calls run one after the other (`concurrency: 1`); `CallEvent.index` gives the position. `onResult` fires
 * once the whole reply is complete. A hook that throws stops the run (after the calls already running have
 * settled): it is the application's own code.
 */
export interface LoopHooks {
  readonly onTurn?: (event: TurnEvent) => void | Promise<void>;
  readonly onCall?: (event: CallEvent) => void | Promise<void>;
  readonly onResult?: (event: ResultEvent) => void | Promise<void>;
  /** A model request failed and is asked again after `delayMs` (`retry` policy): log it, or journal it. */
  readonly onRetry?: (event: RetryEvent) => void | Promise<void>;
  /**
   * Awaited just before each tool runs, once its call passed the four checks. Unlike the others it fires
   * while the turn is in progress; a throw stops the run and the tool does not run (see
   * `ExecutionContext.beforeRun`).
   */
  readonly beforeToolRun?: (event: ToolStartEvent) => void | Promise<void>;
}
