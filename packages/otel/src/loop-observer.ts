import type {
  AnyToolDefinition,
  CallEvent,
  ConfirmationDecision,
  JournalEntry,
  LoopResult,
  Message,
  ModelPrice,
  ModelRequest,
  ModelTurn,
  PausedRun,
} from '@toolcircuit/core';

/**
 * One `runLoop` / `streamLoop` (`start`), `resumeLoop` (`resume`) or `continueLoop` (`continue`) call: one
 * agent invocation.
 */
export interface InvocationStart {
  readonly kind: 'start' | 'resume' | 'continue';
  readonly runId: string;
  /** Epoch milliseconds (fractional). */
  readonly at: number;
  readonly provider: string;
  readonly modelId: string;
  readonly sessionId: string;
  readonly streaming: boolean;
  readonly system: string | undefined;
  readonly maxOutputTokens: number | undefined;
  readonly temperature: number | undefined;
  /** The run's own price rows (`LoopOptions.prices`), over the shipped table: what each turn is priced at. */
  readonly prices: readonly ModelPrice[] | undefined;
  /** Name → description, right and irreversibility of each tool of the catalogue, in catalogue order. */
  readonly tools: readonly ToolSummary[];
  /** The conversation the invocation starts from (content: read only when content capture is on). */
  readonly messages: readonly Message[];
  /** For `resume`: the paused run and the human's decisions. */
  readonly paused?: PausedRun;
  readonly decisions?: readonly ConfirmationDecision[];
}

export interface ToolSummary {
  readonly name: string;
  readonly description: string;
  /** The right name, or `null` for a tool open to every session. */
  readonly right: string | null;
  readonly irreversible: boolean;
}

/** One model call (one turn), as the model wrapper saw it. */
export interface ModelCallStart {
  readonly turn: number;
  /** The model asked at this turn (`prepareStep` may pick another than the invocation's). */
  readonly provider: string;
  readonly modelId: string;
  readonly at: number;
  readonly request: ModelRequest;
  readonly streaming: boolean;
}

export interface ModelCallEnd {
  readonly at: number;
  /** When the first stream event arrived (streaming only). */
  readonly firstChunkAt: number | undefined;
  readonly modelTurn?: ModelTurn;
  readonly error?: unknown;
}

/** A call that has settled, with what the journal was given for it. */
export interface CallSettled {
  readonly event: CallEvent;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly definition: AnyToolDefinition | undefined;
  /** The entry the executor appended (only when the loop has a journal). */
  readonly entry: JournalEntry | undefined;
  /** Earlier calls of the same tool in this run whose result was an error. */
  readonly retries: number;
  /** True when the call comes back with the human's decision after a pause. */
  readonly resumed: boolean;
  /** The response id of the model turn that asked for the call, when the adapter reported one. */
  readonly responseId: string | undefined;
}

export interface InvocationEnd {
  readonly at: number;
  readonly result?: LoopResult;
  readonly error?: unknown;
}

/** What a model call's observer does: run the call inside its context, then hear how it ended. */
export interface ModelCallObserver {
  /** Runs the provider call; the span observer makes its span the active context there (for SDK spans). */
  within<T>(run: () => T): T;
  end(end: ModelCallEnd): void;
}

export interface InvocationObserver {
  modelCall(start: ModelCallStart): ModelCallObserver;
  callSettled(call: CallSettled): void;
  end(end: InvocationEnd): void;
}

/** Something that turns a loop invocation into spans, trace records, or both. */
export interface LoopObserver {
  start(invocation: InvocationStart): InvocationObserver;
}

/** Every observer hears everything, in order. */
export function fanOut(observers: readonly LoopObserver[]): LoopObserver {
  if (observers.length === 1 && observers[0] !== undefined) return observers[0];
  return {
    start(invocation) {
      const started = observers.map((observer) => observer.start(invocation));
      return {
        modelCall(start) {
          const calls = started.map((observer) => observer.modelCall(start));
          return {
            within: <T>(run: () => T): T =>
              calls.reduceRight<() => T>((inner, call) => () => call.within(inner), run)(),
            end: (end) => {
              for (const call of calls) call.end(end);
            },
          };
        },
        callSettled(call) {
          for (const observer of started) observer.callSettled(call);
        },
        end(end) {
          for (const observer of started) observer.end(end);
        },
      };
    },
  };
}

/** Epoch milliseconds with sub-millisecond precision, monotonic within the process. */
export function now(): number {
  return performance.timeOrigin + performance.now();
}
