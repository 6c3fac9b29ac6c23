import { abortListenersOf } from '../async/abort-listeners.js';
import type { Eventually } from '../async/eventually.js';
import type { ToolOutput } from '../catalogue/tool.js';
import { CallToolContext } from './call-tool-context.js';

/** How a call is answered once its tool's race is decided: one function per way it can end. */
export interface RaceAnswers<C, R> {
  readonly returned: (call: C, output: ToolOutput) => Eventually<R>;
  readonly threw: (call: C, error: unknown) => Eventually<R>;
  readonly timedOut: (call: C, timeoutMs: number) => Eventually<R>;
  readonly aborted: (call: C) => Eventually<R>;
}

/**
 * Whatever settles first wins; the tool's signal is aborted after, so a tool reacting to it cannot race.
 * The winner is answered through `answers` with `call` (one shared table, no closure per call), and the
 * promise returned settles with that answer. One promise, settled once, and a share of the signal's one abort
 * listener (see `abortListenersOf`) rather than a listener per call. (With neither a timeout nor a signal
 * the executor answers straight from the tool's promise: nothing to race.)
 */
export function raceTool<C, R>(
  pending: PromiseLike<ToolOutput>,
  toolName: string,
  timeoutMs: number | undefined,
  signal: AbortSignal | undefined,
  toolContext: CallToolContext,
  call: C,
  answers: RaceAnswers<C, R>,
): Promise<R> {
  const race = new ToolRace(toolName, toolContext, call, answers);
  const promise = new Promise<R>(race.capture);
  if (timeoutMs !== undefined) race.startTimer(timeoutMs);
  // The tool's synchronous part may have fired the signal: a listener added now would never be called.
  if (signal !== undefined) {
    if (signal.aborted) race.abort(signal.reason);
    else race.listen(signal);
  }
  Promise.resolve(pending).then(race.onReturned, race.onThrew);
  return promise;
}

/**
 * One running race. Its methods are its own arrow functions only where a callback is needed (the tool's
 * `then`, the abort listener, the promise's executor); everything else is on the prototype.
 */
class ToolRace<C, R> {
  #settled = false;
  #resolve: ((value: Eventually<R>) => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #listeners: Set<() => void> | undefined;
  #signal: AbortSignal | undefined;

  constructor(
    private readonly toolName: string,
    private readonly toolContext: CallToolContext,
    private readonly call: C,
    private readonly answers: RaceAnswers<C, R>,
  ) {}

  readonly capture = (resolve: (value: Eventually<R>) => void): void => {
    this.#resolve = resolve;
  };

  readonly onReturned = (output: ToolOutput): void => {
    if (this.#settle()) this.#answer(this.answers.returned, output);
  };

  readonly onThrew = (error: unknown): void => {
    if (this.#settle()) this.#answer(this.answers.threw, error);
  };

  readonly onAbort = (): void => {
    this.abort(this.#signal?.reason);
  };

  listen(signal: AbortSignal): void {
    this.#signal = signal;
    this.#listeners = abortListenersOf(signal);
    this.#listeners.add(this.onAbort);
  }

  abort(reason: unknown): void {
    if (!this.#settle()) return;
    // Answered on a later turn of the microtask queue, never inside the signal's dispatch.
    const { call, answers } = this;
    (this.#resolve as (value: Promise<R>) => void)(Promise.resolve().then(() => answers.aborted(call)));
    CallToolContext.controllerOf(this.toolContext).abort(reason);
  }

  startTimer(timeoutMs: number): void {
    this.#timer = setTimeout(() => {
      if (!this.#settle()) return;
      const { call, answers } = this;
      (this.#resolve as (value: Promise<R>) => void)(Promise.resolve().then(() => answers.timedOut(call, timeoutMs)));
      CallToolContext.controllerOf(this.toolContext).abort(
        new Error(`Tool "${this.toolName}" timed out after ${timeoutMs} ms`),
      );
    }, timeoutMs);
  }

  #settle(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#listeners?.delete(this.onAbort);
    return true;
  }

  /** Settles the race's promise with the answer; a throwing answer rejects it, as a throwing `then` callback would. */
  #answer<A>(answer: (call: C, value: A) => Eventually<R>, value: A): void {
    const resolve = this.#resolve as (value: Eventually<R>) => void;
    try {
      resolve(answer(this.call, value));
    } catch (error) {
      resolve(Promise.reject(error));
    }
  }
}
