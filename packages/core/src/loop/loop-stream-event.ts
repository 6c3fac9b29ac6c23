import type { Eventually } from '../async/eventually.js';
import type { ToolResultPart } from '../messages/messages.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { StreamEvent } from '../messages/stream-events.js';
import type { LoopOutputPartialEvent } from '../output/partial-output-events.js';
import type { StepPlan } from '../step/step-settings.js';
import type { InterruptedRun } from './interrupted-run.js';
import type { CallEvent, ResultEvent } from './loop-hooks.js';
import type { LoopResult } from './loop-result.js';

/** Which run and which (1-based) model turn an event belongs to. */
export interface LoopEventTag {
  readonly runId: string;
  readonly turn: number;
}

/** The loop is about to ask the model for this turn. */
export interface LoopTurnStartEvent extends LoopEventTag {
  readonly type: 'turn-start';
  /** What this step offers the model, for runs that plan per step (`prepareStep`, `activeTools`). */
  readonly plan?: StepPlan;
}

/** A model's own streamed event (text, reasoning, tool-call progress) as the adapter produced it, tagged. */
export type LoopModelEvent = Exclude<StreamEvent, { readonly type: 'turn-end' | 'error' }> & LoopEventTag;

/**
 * The model's turn is complete. `incompleteToolCallIds` lists every call the loop will not run because it
 * may be cut: those the adapter reported, those whose stream never reached `tool-call-end`, and every call
 * of a turn that stopped on max_tokens.
 */
export interface LoopTurnEndEvent extends LoopEventTag {
  readonly type: 'turn-end';
  readonly modelTurn: ModelTurn;
  readonly incompleteToolCallIds: readonly string[];
}

/** One call has settled (as soon as it does, not when the whole turn has): what the executor decided. */
export interface LoopCallVerdictEvent extends CallEvent {
  readonly type: 'call-verdict';
}

/**
 * The result that goes back to the model for one call, right after its verdict. Not sent for a call held for
 * confirmation (`awaiting_confirmation`): that call has no result until the human decides.
 */
export interface LoopToolResultEvent extends LoopEventTag {
  readonly type: 'tool-result';
  /** The call's position in its turn. */
  readonly index: number;
  readonly result: ToolResultPart;
}

/** The turn's one reply, holding every result in call order, as it is sent to the model. */
export interface LoopReplyEvent extends ResultEvent {
  readonly type: 'reply';
}

/**
 * The model failed this turn; the iterator throws `error` right after this event. `interrupted` is the
 * run's state at that point (also on the error as `error.interrupted`): continue it with `continueLoop`.
 */
export interface LoopErrorEvent extends LoopEventTag {
  readonly type: 'error';
  readonly error: Error;
  readonly interrupted: InterruptedRun;
}

/**
 * A model request failed with a retryable error and is asked again after `delayMs` (see `RetryPolicy`).
 * Model events of the failed attempt (text deltas, calls) were already emitted: discard them; nothing of
 * that attempt ran.
 */
export interface LoopRetryEvent extends LoopEventTag {
  readonly type: 'retry';
  /** The attempt that failed (1 for the first request of the turn). */
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: Error;
}

/** The last event of a run that ended normally, with the same result `runLoop` would have returned. */
export interface LoopEndEvent {
  readonly type: 'loop-end';
  readonly runId: string;
  readonly result: LoopResult;
}

/**
 * What `streamLoop` yields, per turn: `turn-start`, the model's events, `turn-end`, then for each call
 * `call-verdict` and `tool-result` as it settles, then `reply`; at last `loop-end` (or `error`, then a throw).
 * A run with `output` also gets an `output-partial` after each text delta that grew its answer.
 */
export type LoopStreamEvent =
  | LoopTurnStartEvent
  | LoopModelEvent
  | LoopTurnEndEvent
  | LoopCallVerdictEvent
  | LoopToolResultEvent
  | LoopReplyEvent
  | LoopErrorEvent
  | LoopRetryEvent
  | LoopOutputPartialEvent
  | LoopEndEvent;

/**
 * Where the circuit's events go: `streamLoop` hands each to the application and resolves once it asks for
 * the next (so the loop never runs ahead of its reader), or rejects with {@link LoopStreamStopped} when it
 * stops reading. `runLoop` and `resumeLoop` have none, and then no event is even made.
 *
 * An event emitted before the previous one was taken queues behind it (one hand-over for both, see
 * `pullEvents`); with `until`, a queued event is dropped unread once that signal has fired, as if the
 * producer had checked the signal after each event.
 */
export type EmitLoopEvent = (event: LoopStreamEvent, until?: AbortSignal) => Eventually<void>;
