import { randomUUID } from 'node:crypto';
import type { Catalogue } from './catalogue.js';
import { checkLoopOptions } from './check-loop-options.js';
import { runCircuit } from './circuit.js';
import type { ConfirmationMode, ToolStartEvent } from './executor.js';
import type { Journal } from './journal.js';
import type { Message, ToolCallPart, ToolMessage, ToolResultPart } from './messages.js';
import type { Model, ModelTurn, ToolChoice, Usage } from './model.js';
import type { PausedRun } from './paused-run.js';
import type { ProviderOptions } from './provider-metadata.js';
import type { Session } from './session.js';
import { generatedTurns } from './turn-source.js';
import { emptyUsage } from './usage.js';
import type { Verdict } from './verdict.js';

export { DEFAULT_CONCURRENCY, DEFAULT_MAX_TURNS } from './loop-defaults.js';

export interface TurnEvent {
  readonly runId: string;
  readonly turn: number;
  readonly modelTurn: ModelTurn;
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
  /**
   * Awaited just before each tool runs, once its call passed the four checks. Unlike the others it fires
   * while the turn is in progress; a throw stops the run and the tool does not run (see
   * `ExecutionContext.beforeRun`).
   */
  readonly beforeToolRun?: (event: ToolStartEvent) => void | Promise<void>;
}

export interface LoopOptions {
  readonly model: Model;
  readonly catalogue: Catalogue;
  /** Built by the application from its own authentication, never from model output. */
  readonly session: Session;
  /** The conversation so far (at least the user's message). */
  readonly messages: readonly Message[];
  readonly system?: string;
  /** Model turns allowed before the run stops with status `max_turns`. Default 10. */
  readonly maxTurns?: number;
  /** Calls of one turn run at most this many at a time. Default 4; 1 = one after the other. */
  readonly concurrency?: number;
  readonly toolTimeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly journal?: Journal;
  /** Unconfirmed irreversible calls: `refuse` (default) tells the model; `pause` returns them to the app. */
  readonly confirmation?: ConfirmationMode;
  readonly hooks?: LoopHooks;
  readonly toolChoice?: ToolChoice;
  readonly parallelToolCalls?: boolean;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly providerOptions?: ProviderOptions;
  /** Groups the journal entries of this run. Generated when absent. */
  readonly runId?: string;
}

/**
 * - `completed`: the model answered without tool calls.
 * - `max_turns`: the turn limit was reached; the last turn's results are in `messages`, so it can be continued.
 * - `paused`: irreversible calls await the human (confirmation mode `pause`); see `paused`.
 * - `aborted`: the signal fired. Calls already requested still have a result in `messages`.
 *
 * A provider error (`ProviderError` thrown by the model) is not a model mistake and is rethrown, except when
 * it happens because the signal fired, which is reported as `aborted`.
 */
export type LoopStatus = 'completed' | 'max_turns' | 'paused' | 'aborted';

export interface LoopResult {
  readonly status: LoopStatus;
  readonly runId: string;
  /** The whole conversation: the initial messages, then every assistant turn and its tool reply. */
  readonly messages: readonly Message[];
  readonly turns: readonly ModelTurn[];
  /** Summed over all turns. */
  readonly usage: Usage;
  /** The text of the last model turn. */
  readonly text: string;
  readonly paused?: PausedRun;
}

/** What the loop carries from turn to turn; also what a paused run is rebuilt into. */
export interface LoopState {
  readonly runId: string;
  readonly messages: Message[];
  readonly turns: ModelTurn[];
  usage: Usage;
}

/**
 * The circuit: ask the model, run its calls through the executor, send back one reply holding exactly one
 * result per call (in call order, paired by id), and ask again, until the model answers without calls or
 * `maxTurns` is reached. The model never runs anything itself; whatever it asks, the pairing holds.
 */
export async function runLoop(options: LoopOptions): Promise<LoopResult> {
  checkLoopOptions(options);
  return driveLoop(startLoopState(options), options);
}

/** The state of a run that has not asked the model yet. */
export function startLoopState(options: LoopOptions): LoopState {
  return {
    runId: options.runId ?? randomUUID(),
    messages: [...options.messages],
    turns: [],
    usage: emptyUsage,
  };
}

/** Turns until done, with `generate`. Shared by `runLoop` and `resumeLoop`; `streamLoop` runs the same loop. */
export function driveLoop(state: LoopState, options: Omit<LoopOptions, 'messages'>): Promise<LoopResult> {
  return runCircuit(state, options, generatedTurns(options.model));
}
