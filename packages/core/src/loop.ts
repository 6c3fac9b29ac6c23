import { randomUUID } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import type { Catalogue } from './catalogue.js';
import { InvalidLoopOptionsError } from './errors/invalid-loop-options-error.js';
import {
  type ConfirmationMode,
  type ExecutionContext,
  type ExecutionOutcome,
  executeCall,
  refuseCall,
  type ToolStartEvent,
} from './executor.js';
import type { Journal } from './journal.js';
import type { JsonValue } from './json.js';
import {
  type AssistantMessage,
  type Message,
  type ToolCallPart,
  type ToolMessage,
  type ToolResultPart,
  toolCallsOf,
} from './messages.js';
import type { Model, ModelRequest, ModelTurn, ToolChoice, Usage } from './model.js';
import type { PausedRun, PendingCall } from './paused-run.js';
import type { ProviderOptions } from './provider-metadata.js';
import { runBounded } from './run-bounded.js';
import type { Session } from './session.js';
import { addUsage, emptyUsage } from './usage.js';
import type { Verdict } from './verdict.js';

export const DEFAULT_MAX_TURNS = 10;
export const DEFAULT_CONCURRENCY = 4;

export interface TurnEvent {
  readonly runId: string;
  readonly turn: number;
  readonly modelTurn: ModelTurn;
}

export interface CallEvent {
  readonly runId: string;
  readonly turn: number;
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
 * Observers of each step. They are awaited; `onCall` fires once per call, in call order, after all calls of
 * the turn have settled (so hooks never see a half-answered turn). A hook that throws stops the run: it is
 * the application's own code.
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
  checkOptions(options);
  const state: LoopState = {
    runId: options.runId ?? randomUUID(),
    messages: [...options.messages],
    turns: [],
    usage: emptyUsage,
  };
  return driveLoop(state, options);
}

/** Turns until done. Shared by `runLoop` and `resumeLoop`. */
export async function driveLoop(state: LoopState, options: Omit<LoopOptions, 'messages'>): Promise<LoopResult> {
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  while (state.turns.length < maxTurns) {
    if (isAborted(options.signal)) return finishLoop(state, 'aborted');
    const turnNumber = state.turns.length + 1;
    let modelTurn: ModelTurn;
    try {
      modelTurn = await options.model.generate(buildRequest(state, options));
    } catch (error) {
      if (isAborted(options.signal)) return finishLoop(state, 'aborted');
      throw error;
    }
    state.turns.push(modelTurn);
    state.usage = addUsage(state.usage, modelTurn.usage);
    state.messages.push(assistantMessageOf(modelTurn));
    await options.hooks?.onTurn?.({ runId: state.runId, turn: turnNumber, modelTurn });

    const calls = toolCallsOf(modelTurn.content);
    if (calls.length === 0) return finishLoop(state, 'completed');

    const outcomes = await answerCalls(calls, modelTurn, turnNumber, state.runId, options);
    await notifyCalls(calls, outcomes, turnNumber, state.runId, options);
    const pending = pendingCallsOf(calls, outcomes);
    if (pending.length > 0) return finishLoop(state, 'paused', pausedRunOf(state, options.session, pending, outcomes));

    await appendReply(state, turnNumber, outcomes, options);
    if (isAborted(options.signal)) return finishLoop(state, 'aborted');
  }
  return finishLoop(state, 'max_turns');
}

/**
 * One outcome per call, in call order. Duplicate ids: the first call with an id runs, any later call
 * reusing it is refused (`duplicate_call_id`) so that every request still has exactly one result. A turn
 * cut off by max_tokens runs nothing: its calls may be truncated (`incomplete_call`).
 */
async function answerCalls(
  calls: readonly ToolCallPart[],
  modelTurn: ModelTurn,
  turn: number,
  runId: string,
  options: Omit<LoopOptions, 'messages'>,
): Promise<ExecutionOutcome[]> {
  const context = executionContext(options, runId, turn, options.confirmation ?? 'refuse');
  const truncated = modelTurn.stopReason.unified === 'max_tokens';
  const seen = new Set<string>();
  const tasks = calls.map((call) => {
    if (truncated) return () => refuseCall(call, 'incomplete_call', incompleteText(call.name), context);
    if (seen.has(call.id)) return () => refuseCall(call, 'duplicate_call_id', duplicateText(call), context);
    seen.add(call.id);
    return () => executeCall(call, context);
  });
  return runBounded(tasks, options.concurrency ?? DEFAULT_CONCURRENCY);
}

export function executionContext(
  options: Omit<LoopOptions, 'messages'>,
  runId: string,
  turn: number,
  confirmation: ConfirmationMode,
): ExecutionContext {
  return {
    catalogue: options.catalogue,
    session: options.session,
    runId,
    turn,
    confirmation,
    ...(options.journal === undefined ? {} : { journal: options.journal }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.toolTimeoutMs === undefined ? {} : { timeoutMs: options.toolTimeoutMs }),
    ...(options.hooks?.beforeToolRun === undefined ? {} : { beforeRun: options.hooks.beforeToolRun }),
  };
}

export async function notifyCalls(
  calls: readonly ToolCallPart[],
  outcomes: readonly ExecutionOutcome[],
  turn: number,
  runId: string,
  options: Omit<LoopOptions, 'messages'>,
): Promise<void> {
  const onCall = options.hooks?.onCall;
  if (onCall === undefined) return;
  for (const [index, call] of calls.entries()) {
    const outcome = outcomes[index];
    if (outcome === undefined) continue;
    await onCall({
      runId,
      turn,
      call,
      verdict: outcome.verdict,
      result: outcome.result,
      durationMs: outcome.durationMs,
      inputDigest: outcome.inputDigest,
    });
  }
}

export async function appendReply(
  state: LoopState,
  turn: number,
  outcomes: readonly { readonly result: ToolResultPart }[],
  options: Omit<LoopOptions, 'messages'>,
): Promise<void> {
  const message: ToolMessage = { role: 'tool', content: outcomes.map((outcome) => outcome.result) };
  state.messages.push(message);
  await options.hooks?.onResult?.({ runId: state.runId, turn, message });
}

export function finishLoop(state: LoopState, status: LoopStatus, paused?: PausedRun): LoopResult {
  const last = state.turns.at(-1);
  const text = (last?.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');
  return {
    status,
    runId: state.runId,
    messages: [...state.messages],
    turns: [...state.turns],
    usage: state.usage,
    text,
    ...(paused === undefined ? {} : { paused }),
  };
}

export function checkOptions(options: Omit<LoopOptions, 'messages'>): void {
  const { maxTurns, concurrency, toolTimeoutMs } = options;
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns >= 1)) {
    throw new InvalidLoopOptionsError(
      'maxTurns',
      `got ${String(maxTurns)}; use a whole number of model turns, 1 or more.`,
    );
  }
  if (concurrency !== undefined && !((Number.isInteger(concurrency) && concurrency >= 1) || concurrency === Infinity)) {
    throw new InvalidLoopOptionsError(
      'concurrency',
      `got ${String(concurrency)}; use a whole number, 1 or more (1 runs the calls of a turn one after the other).`,
    );
  }
  if (toolTimeoutMs !== undefined && !(Number.isFinite(toolTimeoutMs) && toolTimeoutMs > 0)) {
    throw new InvalidLoopOptionsError(
      'toolTimeoutMs',
      `got ${String(toolTimeoutMs)}; use a positive number of milliseconds.`,
    );
  }
  if (options.confirmation !== undefined && options.confirmation !== 'refuse' && options.confirmation !== 'pause') {
    throw new InvalidLoopOptionsError('confirmation', `got ${String(options.confirmation)}; use "refuse" or "pause".`);
  }
}

/** A function, not an inline check: TypeScript would otherwise assume the signal cannot change mid-turn. */
export function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function buildRequest(state: LoopState, options: Omit<LoopOptions, 'messages'>): ModelRequest {
  return {
    // A fresh array each turn: the model may keep it, the loop keeps appending to its own.
    messages: [...state.messages],
    tools: options.catalogue.declarations,
    ...(options.system === undefined ? {} : { system: options.system }),
    ...(options.toolChoice === undefined ? {} : { toolChoice: options.toolChoice }),
    ...(options.parallelToolCalls === undefined ? {} : { parallelToolCalls: options.parallelToolCalls }),
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.providerOptions === undefined ? {} : { providerOptions: options.providerOptions }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
}

function assistantMessageOf(turn: ModelTurn): AssistantMessage {
  return {
    role: 'assistant',
    content: turn.content,
    ...(turn.providerMetadata === undefined ? {} : { providerMetadata: turn.providerMetadata }),
  };
}

function pendingCallsOf(calls: readonly ToolCallPart[], outcomes: readonly ExecutionOutcome[]): PendingCall[] {
  const pending: PendingCall[] = [];
  for (const [index, call] of calls.entries()) {
    const verdict = outcomes[index]?.verdict;
    if (verdict?.kind !== 'awaiting_confirmation') continue;
    pending.push({
      index,
      callId: call.id,
      toolName: call.name,
      // Only inputs that canonicalised can reach the confirmation check, so this cannot throw.
      input: JSON.parse(canonicalJson(call.input)) as JsonValue,
      inputDigest: verdict.inputDigest,
    });
  }
  return pending;
}

function pausedRunOf(
  state: LoopState,
  session: Session,
  pending: readonly PendingCall[],
  outcomes: readonly ExecutionOutcome[],
): PausedRun {
  return {
    version: 1,
    runId: state.runId,
    sessionId: session.id,
    humanId: session.humanId,
    turn: state.turns.length,
    messages: [...state.messages],
    turns: [...state.turns],
    usage: state.usage,
    pending,
    results: outcomes.map((outcome) => (outcome.verdict.kind === 'awaiting_confirmation' ? null : outcome.result)),
  };
}

function incompleteText(name: string): string {
  return (
    `Your previous answer was cut off by the output token limit, so this call to "${name.slice(0, 80)}" may be ` +
    'incomplete and was not run. Call it again with complete arguments and keep the rest of your answer shorter.'
  );
}

function duplicateText(call: ToolCallPart): string {
  return (
    `This call reuses the id "${call.id.slice(0, 80)}" of an earlier call in the same turn, so it was not run. ` +
    'Give every call of a turn its own id, and call the tool again if you still need it.'
  );
}
