import type { Tracer } from '@opentelemetry/api';
import {
  type ConfirmationDecision,
  continueLoop,
  type InterruptedRun,
  type LoopOptions,
  type LoopResult,
  type LoopStream,
  type Message,
  oneModel,
  type PausedRun,
  type ResumeOptions,
  resumeLoop,
  runLoop,
  streamLoop,
} from '@toolcircuit/core';
import { loadOpenTelemetryApi } from './load-open-telemetry-api.js';
import { fanOut, type InvocationObserver, type InvocationStart, type LoopObserver, now } from './loop-observer.js';
import { observedOptions, toolSummaries } from './observed-options.js';
import { spanObserver } from './span-observer.js';
import { type TraceSink, traceFileObserver } from './trace-file-observer.js';

export interface LoopTracingOptions {
  /**
   * The tracer spans go to. Default: `@opentelemetry/api`'s global tracer (whatever provider the
   * application registered) when that package is installed; without it, no spans.
   */
  readonly tracer?: Tracer;
  /** `false`: no spans even when `@opentelemetry/api` is installed (e.g. only a trace file). Default true. */
  readonly spans?: boolean;
  /**
   * Record message, argument and result content (the conventions' opt-in content capture). Default false:
   * spans and trace records then hold names, ids, verdicts, digests, timings and usage, never content.
   */
  readonly captureContent?: boolean;
  /** Also hand every step to this sink as trace records (the trace viewer's JSON-lines format). */
  readonly traceFile?: TraceSink;
  /** A label for the runs in the trace file (e.g. the backend's name). */
  readonly label?: string;
  /** `gen_ai.agent.name` of the invocation spans. Default `toolcircuit`. */
  readonly agentName?: string;
}

/** The loop's entry points, traced; same signatures and results as core's. */
export interface LoopTracing {
  /** False when nothing is observed (no `@opentelemetry/api`, no trace file): the functions are core's own. */
  readonly enabled: boolean;
  runLoop(options: LoopOptions): Promise<LoopResult>;
  resumeLoop(
    paused: PausedRun,
    decisions: readonly ConfirmationDecision[],
    options: ResumeOptions,
  ): Promise<LoopResult>;
  streamLoop(options: LoopOptions): LoopStream;
  /** A run the model interrupted, continued (`continueLoop`): one more invocation of the same run. */
  continueLoop(interrupted: InterruptedRun, options: ResumeOptions): Promise<LoopResult>;
}

const TRACER_NAME = '@toolcircuit/otel';

/**
 * The loop, traced: an `invoke_agent` span per invocation with its `chat` and `execute_tool` spans (see the
 * README), and/or trace records. Async because `@opentelemetry/api` is loaded here, and only here, when it
 * is installed; when neither spans nor a trace file are wanted the result is core's functions unchanged.
 */
export async function createLoopTracing(options: LoopTracingOptions = {}): Promise<LoopTracing> {
  const captureContent = options.captureContent ?? false;
  const observers: LoopObserver[] = [];
  if (options.spans !== false) {
    const api = await loadOpenTelemetryApi();
    if (api !== undefined) {
      const tracer = options.tracer ?? api.trace.getTracer(TRACER_NAME);
      observers.push(spanObserver(api, tracer, { captureContent, agentName: options.agentName ?? 'toolcircuit' }));
    }
  }
  if (options.traceFile !== undefined) {
    const label = options.label;
    observers.push(traceFileObserver(options.traceFile, { captureContent, ...(label === undefined ? {} : { label }) }));
  }
  if (observers.length === 0) return { enabled: false, runLoop, resumeLoop, streamLoop, continueLoop };
  return tracedLoop(fanOut(observers));
}

/** The loop's entry points observed by `observer`. */
export function tracedLoop(observer: LoopObserver): LoopTracing {
  return {
    enabled: true,
    async runLoop(options) {
      const { invocation, observed, runId } = startRun(observer, options, false);
      return ended(invocation, runLoop({ ...observed, messages: options.messages, runId }));
    },
    async resumeLoop(paused, decisions, options) {
      const start = invocationStart('resume', paused.runId, options, paused.messages, false, paused, decisions);
      const invocation = observer.start(start);
      const settled = paused.results.filter((result) => result !== null);
      const history: Message[] = [...paused.messages, { role: 'tool', content: settled }];
      const observed = observedOptions(options, {
        invocation,
        firstTurn: paused.turn + 1,
        history,
        earlierTurns: paused.turns,
        resumedTurn: paused.turn,
      });
      return ended(invocation, resumeLoop(paused, decisions, observed));
    },
    streamLoop(options) {
      const { invocation, observed, runId } = startRun(observer, options, true);
      const stream = streamLoop({ ...observed, messages: options.messages, runId });
      // Observed on the side: the application's own handling of `result` (or lack of it) is unchanged.
      ended(invocation, stream.result).catch(() => {});
      return stream;
    },
    async continueLoop(interrupted, options) {
      const start = invocationStart('continue', interrupted.runId, options, interrupted.messages, false);
      const invocation = observer.start(start);
      // The failed turn is asked again: the model calls are numbered from it, after the turns already played.
      const observed = observedOptions(options, {
        invocation,
        firstTurn: interrupted.turn,
        history: interrupted.messages,
        earlierTurns: interrupted.turns,
      });
      return ended(invocation, continueLoop(interrupted, observed));
    },
  };
}

/** A new run (`runLoop`, `streamLoop`): its id, its invocation observer and its observed options. */
function startRun(observer: LoopObserver, options: LoopOptions, streaming: boolean) {
  const runId = options.runId ?? crypto.randomUUID();
  const invocation = observer.start(invocationStart('start', runId, options, options.messages, streaming));
  const observed = observedOptions(options, { invocation, firstTurn: 1, history: options.messages, earlierTurns: [] });
  return { runId, invocation, observed };
}

/** The invocation ends when the loop does, with its result or its error (rethrown unchanged). */
async function ended(invocation: InvocationObserver, running: Promise<LoopResult>): Promise<LoopResult> {
  try {
    const result = await running;
    invocation.end({ at: now(), result });
    return result;
  } catch (error) {
    invocation.end({ at: now(), error });
    throw error;
  }
}

function invocationStart(
  kind: InvocationStart['kind'],
  runId: string,
  options: ResumeOptions,
  messages: readonly Message[],
  streaming: boolean,
  paused?: PausedRun,
  decisions?: readonly ConfirmationDecision[],
): InvocationStart {
  // A fallback list is `fallback`, its id the list's models (each turn says which of them answered it).
  const model = oneModel(options.model);
  return {
    kind,
    runId,
    at: now(),
    provider: model.provider,
    modelId: model.modelId,
    sessionId: options.session.id,
    streaming,
    system: options.system,
    maxOutputTokens: options.maxOutputTokens,
    temperature: options.temperature,
    prices: options.prices,
    tools: toolSummaries(options.catalogue),
    messages,
    ...(paused === undefined ? {} : { paused }),
    ...(decisions === undefined ? {} : { decisions }),
  };
}
