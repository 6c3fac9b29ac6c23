import type { Message } from '../messages/messages.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { Usage } from '../messages/usage.js';
import type { TaintSource } from '../provenance/taint-source.js';
import type { SealOptions } from '../seal/seal-options.js';
import { type StateSeal, sealState } from '../seal/state-seal.js';
import type { StepPlan } from '../step/step-settings.js';
import type { LoopState } from './loop-state.js';

/**
 * Everything a run had played when the model failed (a provider error, a cut stream): plain data, so it can
 * be stored and continued in another process with `continueLoop`. `messages` end with the last reply (or
 * the caller's messages when the first request failed): every call of the turns played is answered there,
 * so continuing asks the model again and re-runs nothing. Serialise it with `canonicalJson` (any depth;
 * `JSON.stringify` stops at about 10,000 levels of nesting, which a model's arguments can reach) and read it
 * back with `JSON.parse`.
 *
 * It carries the run's untrusted sources, so a continued run gates what it gated before; with the loop's
 * `seal` option it is sealed, and `continueLoop` refuses it if anything in it was changed.
 */
export interface InterruptedRun {
  readonly version: 1;
  readonly runId: string;
  /** The 1-based turn whose model request failed: the turn `continueLoop` asks for again. */
  readonly turn: number;
  readonly messages: readonly Message[];
  /** The model turns played, one per answered turn. */
  readonly turns: readonly ModelTurn[];
  readonly usage: Usage;
  /** Ids of the calls already answered (run, refused or failed): none of them runs again. */
  readonly answeredCallIds: readonly string[];
  /** The deferred tools loaded so far, in load order (absent when the catalogue defers nothing). */
  readonly loadedTools?: readonly string[];
  /**
   * The plan of the step whose request failed (present for planned runs), for the record: `continueLoop`
   * plans that step again with `prepareStep`, over the restored loaded tools.
   */
  readonly step?: StepPlan;
  /**
   * The run's untrusted sources so far (absent when provenance is off, and in states written before they
   * were kept: `continueLoop` then counts every tool result of `messages` as untrusted, from turn 0).
   */
  readonly provenance?: { readonly sources: readonly TaintSource[] };
  /** What stopped the run, as data. */
  readonly error: {
    readonly name: string;
    readonly message: string;
    readonly code?: string;
    readonly retryable?: boolean;
    readonly retryAfterMs?: number;
  };
  /** HMAC of everything above under the application's key (`LoopOptions.seal`); absent when unsealed. */
  readonly seal?: StateSeal;
}

/** What an interrupted run's seal is for (see `sealState`). */
export const INTERRUPTED_RUN_SEAL = 'interrupted-run';

const INTERRUPTED = 'interrupted';

/**
 * The state a failed model request leaves behind (a copy: the loop's own arrays are not shared), sealed when
 * the run has a key.
 */
export function interruptedRunOf(
  state: LoopState,
  turn: number,
  error: unknown,
  step: StepPlan | undefined,
  seal: SealOptions | undefined,
): InterruptedRun {
  const answeredCallIds: string[] = [];
  for (const message of state.messages) {
    if (message.role === 'tool') for (const part of message.content) answeredCallIds.push(part.callId);
  }
  const run: InterruptedRun = {
    version: 1,
    runId: state.runId,
    turn,
    messages: [...state.messages],
    turns: [...state.turns],
    usage: state.usage,
    answeredCallIds,
    ...(state.loadedTools === undefined ? {} : { loadedTools: state.loadedTools.names() }),
    ...(step === undefined ? {} : { step }),
    ...(state.provenance === undefined ? {} : { provenance: { sources: state.provenance.sources() } }),
    error: errorData(error),
  };
  return seal === undefined ? run : sealState(INTERRUPTED_RUN_SEAL, run, seal.key);
}

/**
 * The interrupted run a loop attached to the error it threw (`runLoop`, `resumeLoop`, `continueLoop`,
 * `streamLoop`'s iterator and `result`), or `undefined` for an error that did not come from the model.
 */
export function interruptedRunOfError(error: unknown): InterruptedRun | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const value = (error as { [INTERRUPTED]?: unknown })[INTERRUPTED];
  return typeof value === 'object' && value !== null ? (value as InterruptedRun) : undefined;
}

/** Puts the interrupted run on the error as `error.interrupted` (a plain property: it shows when logged). */
export function attachInterruptedRun(error: unknown, run: InterruptedRun): void {
  if (typeof error !== 'object' || error === null || Object.isFrozen(error)) return;
  try {
    Object.defineProperty(error, INTERRUPTED, { value: run, enumerable: false, configurable: true, writable: true });
  } catch {
    // An exotic error object that refuses properties: the state is still on the stream's error event.
  }
}

function errorData(error: unknown): InterruptedRun['error'] {
  if (!(error instanceof Error)) return { name: 'Error', message: safeString(error) };
  const fields = error as Error & { code?: unknown; retryable?: unknown; retryAfterMs?: unknown };
  return {
    name: error.name,
    message: error.message,
    ...(typeof fields.code === 'string' ? { code: fields.code } : {}),
    ...(typeof fields.retryable === 'boolean' ? { retryable: fields.retryable } : {}),
    ...(typeof fields.retryAfterMs === 'number' ? { retryAfterMs: fields.retryAfterMs } : {}),
  };
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return 'an error that cannot be printed';
  }
}
