import { type Eventually, isPromiseLike } from '../async/eventually.js';
import { isAborted } from '../async/is-aborted.js';
import { ProviderError } from '../errors/provider-error.js';
import { toolCallsOf } from '../messages/messages.js';
import type { ModelRequest } from '../messages/model.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { StreamEvent } from '../messages/stream-events.js';
import { attachInterruptedRun, type InterruptedRun } from './interrupted-run.js';
import type { EmitLoopEvent, LoopEventTag, LoopModelEvent } from './loop-stream-event.js';
import { LoopStreamStopped } from './loop-stream-stopped.js';
import type { TurnSource } from './turn-source.js';

export interface ModelTurnRead {
  readonly modelTurn: ModelTurn;
  /** Ids of the calls that must not run: possibly cut (see `LoopTurnEndEvent`). */
  readonly incomplete: ReadonlySet<string>;
}

/**
 * Reads one streamed model turn, emitting the model's events (tagged) as they come: one at a time, each
 * only once the previous one was taken, so the stream is never read ahead. Returns the turn, or `undefined`
 * when the signal fired. A model error (an `error` event or a throw) is emitted as an `error` event and then
 * thrown, unless the signal fired, which is an abort. (A `generate` turn: see {@link generatedTurnRead}.)
 */
export function readModelTurn(
  source: Exclude<TurnSource, { readonly kind: 'generate' }>,
  request: ModelRequest,
  tag: LoopEventTag,
  provider: string,
  emit: EmitLoopEvent | undefined,
  interrupted: (error: unknown) => InterruptedRun | undefined,
): Promise<ModelTurnRead | undefined> {
  if (source.kind === 'replay') {
    if (emit !== undefined) return readReplayedTurn(source.events, request, tag, provider, emit, interrupted);
    return readStreamedTurn(source.events, request, tag, provider, emit, interrupted);
  }
  return readStreamedTurn(source.stream, request, tag, provider, emit, interrupted);
}

/**
 * The model failed this turn: the run's state goes on the error (`error.interrupted`) and on the `error`
 * event, so the run can be continued (`continueLoop`) without re-running anything.
 */
export async function reportModelError(
  error: unknown,
  tag: LoopEventTag,
  emit: EmitLoopEvent | undefined,
  interrupted: (error: unknown) => InterruptedRun | undefined,
): Promise<void> {
  const run = interrupted(error);
  // No state: the loop asks again (a retry), so the run is not interrupted and the failure is not final.
  if (run === undefined) return;
  attachInterruptedRun(error, run);
  await emit?.({
    type: 'error',
    ...tag,
    error: error instanceof Error ? error : new Error(String(error)),
    interrupted: run,
  });
}

/** Where a turn's events stop being read: its end (the turn read, or `undefined` for an abort), or go on. */
const GO_ON: unique symbol = Symbol('go on');

async function readStreamedTurn(
  stream: (request: ModelRequest) => AsyncIterable<StreamEvent> | Promise<readonly StreamEvent[]>,
  request: ModelRequest,
  tag: LoopEventTag,
  provider: string,
  emit: EmitLoopEvent | undefined,
  interrupted: (error: unknown) => InterruptedRun | undefined,
): Promise<ModelTurnRead | undefined> {
  const ended = new Set<string>();
  // An adapter that keeps streaming after the abort must not keep the run alive.
  const afterEmit = (): undefined | typeof GO_ON => (isAborted(request.signal) ? undefined : GO_ON);
  const read = (event: StreamEvent): Eventually<ModelTurnRead | undefined | typeof GO_ON> => {
    if (event.type === 'error') throw event.error;
    if (event.type === 'turn-end') {
      return { modelTurn: event.turn, incomplete: incompleteCalls(event.turn, event.incompleteToolCallIds, ended) };
    }
    if (event.type === 'tool-call-end') ended.add(event.id);
    if (emit === undefined) return afterEmit();
    // Not `{ ...event, ...tag }`: on Node 20 adding keys to a spread copy costs microseconds (V8 leaves its
    // fast path), several times what `Object.assign` does with the same result, key order included.
    const emitted = emit(Object.assign({}, event, tag));
    return isPromiseLike(emitted) ? Promise.resolve(emitted).then(afterEmit) : afterEmit();
  };
  try {
    const events = stream(request);
    if (isPromiseLike(events as Promise<readonly StreamEvent[]>)) {
      // A replayed turn nobody reads: its events are read in order without an iterator's promises.
      for (const event of await (events as Promise<readonly StreamEvent[]>)) {
        const reading = read(event);
        const outcome = isPromiseLike(reading) ? await reading : reading;
        if (outcome !== GO_ON) return outcome;
      }
    } else {
      for await (const event of events as AsyncIterable<StreamEvent>) {
        const reading = read(event);
        const outcome = isPromiseLike(reading) ? await reading : reading;
        if (outcome !== GO_ON) return outcome;
      }
    }
  } catch (error) {
    // The reader stopped: the `for await` above has closed the model's stream; nothing to report.
    return failedRead(error, request, tag, emit, interrupted);
  }
  return endedWithoutTurnEnd(request, tag, provider, emit, interrupted);
}

/** A read that threw: a stopped reader's stop as it is, an abort as `undefined`, else reported and rethrown. */
async function failedRead(
  error: unknown,
  request: ModelRequest,
  tag: LoopEventTag,
  emit: EmitLoopEvent | undefined,
  interrupted: (error: unknown) => InterruptedRun | undefined,
): Promise<undefined> {
  if (error instanceof LoopStreamStopped) throw error;
  if (isAborted(request.signal)) return undefined;
  await reportModelError(error, tag, emit, interrupted);
  throw error;
}

/** A stream that ended without `turn-end` or `error`: a provider error (or an abort, if the signal fired). */
async function endedWithoutTurnEnd(
  request: ModelRequest,
  tag: LoopEventTag,
  provider: string,
  emit: EmitLoopEvent | undefined,
  interrupted: (error: unknown) => InterruptedRun | undefined,
): Promise<undefined> {
  if (isAborted(request.signal)) return undefined;
  const error = new ProviderError({
    provider,
    code: 'unknown',
    message: `the stream of turn ${tag.turn} ended without a turn-end or error event; nothing of this turn was run`,
    retryable: false,
  });
  await reportModelError(error, tag, emit, interrupted);
  throw error;
}

/**
 * A turn replayed from `generate` for a reader: its events exist at once, so they are queued for the reader
 * together (one hand-over for the turn, see `pullEvents`) instead of waking the loop after each. Each is
 * emitted with the request's signal as `until`: once it fires, the events the reader has not taken are
 * dropped, as the event-by-event read stops at the first one after the abort. The events are the replay's
 * own (made for this turn, held by nobody else), so each is tagged in place rather than copied. Every call
 * of a replay has its `tool-call-end` and the replay reports none incomplete, so only `max_tokens` cuts
 * calls here (as in {@link generatedTurnRead}).
 */
async function readReplayedTurn(
  events: (request: ModelRequest) => Promise<readonly StreamEvent[]>,
  request: ModelRequest,
  tag: LoopEventTag,
  provider: string,
  emit: EmitLoopEvent,
  interrupted: (error: unknown) => InterruptedRun | undefined,
): Promise<ModelTurnRead | undefined> {
  try {
    let pending: Eventually<void> | undefined;
    for (const event of await events(request)) {
      if (event.type === 'error') throw event.error;
      if (event.type === 'turn-end') {
        if (isPromiseLike(pending)) await pending;
        if (isAborted(request.signal)) return undefined;
        return { modelTurn: event.turn, incomplete: replayedIncomplete(event.turn) };
      }
      const emitted = emit(Object.assign(event, tag) as LoopModelEvent, request.signal);
      // The stream hands every queued emit the same promise; any other one must not reject unheard.
      if (isPromiseLike(pending) && pending !== emitted) Promise.resolve(pending).catch(ignore);
      pending = emitted;
      // An emitter that waits for nobody (no queue): the event-by-event read's check, after each event.
      if (!isPromiseLike(emitted) && isAborted(request.signal)) return undefined;
    }
    if (isPromiseLike(pending)) await pending;
  } catch (error) {
    return failedRead(error, request, tag, emit, interrupted);
  }
  return endedWithoutTurnEnd(request, tag, provider, emit, interrupted);
}

function ignore(): void {}

/**
 * A turn from `generate`, read as `streamedTurns` would replay it, without making the events: a turn that
 * would have replayed any event before `turn-end` is dropped when the signal fired meanwhile (the stream
 * path checks the signal after each event). The loop awaits `generate` itself (one promise hop fewer per
 * step than a `then` here) and reports its failure with {@link reportModelError}, as a stream's is.
 */
export function generatedTurnRead(modelTurn: ModelTurn, request: ModelRequest): ModelTurnRead | undefined {
  // The signal first: the turn's parts are scanned only in the rare case it fired.
  if (isAborted(request.signal) && replaysAnEvent(modelTurn)) return undefined;
  return { modelTurn, incomplete: replayedIncomplete(modelTurn) };
}

const NONE_INCOMPLETE: ReadonlySet<string> = new Set();

/** Every replayed call is ended and the replay reports none incomplete: only max_tokens cuts calls. */
function replayedIncomplete(modelTurn: ModelTurn): ReadonlySet<string> {
  return modelTurn.stopReason.unified === 'max_tokens' ? incompleteCalls(modelTurn, [], new Set()) : NONE_INCOMPLETE;
}

/** Whether `turnStreamEvents` makes any event before `turn-end` for this turn. */
function replaysAnEvent(turn: ModelTurn): boolean {
  return turn.content.some((part) => {
    if (part.type === 'text') return part.text !== '' || (part.sources !== undefined && part.sources.length > 0);
    if (part.type === 'reasoning') return part.text !== '' || part.providerMetadata !== undefined;
    return true;
  });
}

function incompleteCalls(turn: ModelTurn, reported: readonly string[], ended: ReadonlySet<string>): Set<string> {
  const calls = toolCallsOf(turn.content);
  // A turn cut by max_tokens may have cut any of its calls, whatever the adapter could tell.
  if (turn.stopReason.unified === 'max_tokens') return new Set(calls.map((call) => call.id));
  const incomplete = new Set(reported);
  for (const call of calls) if (!ended.has(call.id)) incomplete.add(call.id);
  return incomplete;
}
