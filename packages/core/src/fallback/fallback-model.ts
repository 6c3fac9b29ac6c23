import { isAborted } from '../async/is-aborted.js';
import { InvalidLoopOptionsError } from '../errors/invalid-loop-options-error.js';
import { ProviderError } from '../errors/provider-error.js';
import type { JsonObject } from '../json/json.js';
import { type RetryPolicy, retryDelayMs } from '../loop/retry-policy.js';
import { isModel } from '../messages/is-model.js';
import type { Message } from '../messages/messages.js';
import type { Model, ModelRequest } from '../messages/model.js';
import type { ModelTurn } from '../messages/model-turn.js';
import type { StreamEvent } from '../messages/stream-events.js';
import { turnStreamEvents } from '../messages/turn-stream-events.js';
import {
  type AnsweringModel,
  answeringMark,
  FALLBACK_PROVIDER,
  type FailedModel,
  withAnsweringModel,
  withMark,
} from './answering-model.js';
import type { FallbackPolicy, FallbackPosition } from './fallback-policy.js';
import { currentMember, fallbackPosition } from './fallback-position.js';
import { requestForProvider, type TranslatedMessages } from './request-for-provider.js';

export interface FallbackOptions {
  /**
   * The run's retry policy (`LoopOptions.retry`), so that the loop's retries of a model come before falling
   * over: a model is left only once the loop would not ask it again. A model list in `LoopOptions.model`
   * passes it for you.
   */
  readonly retry?: RetryPolicy;
  /** Which model starts each turn, and whether a failure falls over or gives up; see {@link FallbackPolicy}. */
  readonly policy?: FallbackPolicy;
}

/** A {@link Model} that is a list of models: the first answers, the next one when it fails. */
export interface FallbackModel extends Model {
  readonly models: readonly Model[];
}

/**
 * One model made of several, for a run that goes on when a provider fails: each turn is asked of the model
 * that answered the last one (the primary at first); when it fails with a retryable `ProviderError` (429,
 * 5xx, 529, a lost connection) after its SDK's own retries and the loop's retry policy, the next model of the
 * list answers the same turn, from the same neutral request, translated for its provider by the rules of
 * `requestForProvider`. Nothing else changes: the loop checks, runs and journals the calls as always, so a
 * call already run is never run again, and taint and pending confirmations are the run's, whatever model
 * answers. Each turn says which model answered it (`answeringModelOf`); the position on the list is read
 * back from those marks, so `continueLoop`, `resumeLoop` and the durable runner go on where the run was.
 *
 * A streamed turn falls over only when its model failed before its first event; once events were handed on,
 * the failure is the turn's (the loop's retry policy, then an interrupted run).
 *
 * @example
 * await runLoop({ model: [createAnthropicModel({ model: 'claude-sonnet-4-5' }), createOpenAIResponsesModel({ model: 'gpt-5' })], ... });
 * // The same, with a policy:
 * await runLoop({ model: fallbackModel([primary, secondary], { policy: backToPrimaryAfter(3) }), ... });
 */
export function fallbackModel(models: readonly Model[], options: FallbackOptions = {}): FallbackModel {
  checkModels(models);
  const list = Object.freeze([...models]);
  const policy = options.policy ?? {};
  // The loop sends the same request object again when it retries a turn: attempts are counted per request,
  // once one fails (an attempt that succeeds is never followed by another of the same request).
  const attempts = new WeakMap<ModelRequest, number>();
  const translated: TranslatedMessages = new Map();
  const positions = new WeakMap<Message, FallbackPosition>();
  const attemptOf = (request: ModelRequest): number => {
    const attempt = (attempts.get(request) ?? 0) + 1;
    attempts.set(request, attempt);
    return attempt;
  };
  const firstOf = (request: ModelRequest): number => {
    const { beforeTurn } = policy;
    if (beforeTurn === undefined) return currentMember(request.messages, list);
    const position = fallbackPosition(request.messages, list, positions);
    return beforeTurn(position) === 'primary' ? 0 : position.current;
  };
  // The mark of a turn its first model answered, the same for every such turn.
  const firstTry = list.map((model, member) => Object.freeze(answeringMark(answeredBy(model, member, NONE_FAILED))));
  const sentTo = (model: Model, request: ModelRequest) => requestForProvider(model.provider, request, translated);
  /** The models of one request after `first` failed it: `fail` moves on, or says the error is the turn's. */
  const fallingOver = (request: ModelRequest, first: number) => {
    const attempt = attemptOf(request);
    const tried = new Set<number>([first]);
    const failures: FailedModel[] = [];
    let member = first;
    return {
      get model(): Model {
        return list[member] as Model;
      },
      mark: (turn: ModelTurn) => marked(turn, list[member] as Model, member, failures),
      /** Whether another model answers after this error; `false`: it is thrown. */
      fail(error: unknown): boolean {
        if (isAborted(request.signal) || !(error instanceof ProviderError) || !error.retryable) return false;
        // The loop asks this model again (its retry policy) before the list moves on.
        if (tried.size === 1 && retryDelayMs(options.retry, attempt, error) !== undefined) return false;
        const next = untriedAfter(member, tried, list.length);
        if (next === undefined) return false;
        if (policy.onFailure?.({ error, failed: member, next }) === 'give_up') return false;
        failures.push(failedModel(list[member] as Model, member, error));
        member = next;
        tried.add(next);
        return true;
      },
    };
  };

  /** After `first` failed the turn with `error`: the next models, until one answers or none is left. */
  const fallOver = async (request: ModelRequest, first: number, error: unknown): Promise<ModelTurn> => {
    const turn = fallingOver(request, first);
    let failed = error;
    for (;;) {
      if (!turn.fail(failed)) throw failed;
      const { model } = turn;
      try {
        return turn.mark(await model.generate(sentTo(model, request)));
      } catch (next) {
        failed = next;
      }
    }
  };

  // A turn its first model answers adds only this to the model's own call: no async frame, no state.
  const generate = (request: ModelRequest): Promise<ModelTurn> => {
    let first = 0;
    let answer: Promise<ModelTurn>;
    try {
      first = firstOf(request);
      const primary = list[first] as Model;
      // `Promise.resolve`: a model written in plain JavaScript may answer without a promise.
      answer = Promise.resolve(primary.generate(sentTo(primary, request)));
    } catch (error) {
      return fallOver(request, first, error);
    }
    const mark = firstTry[first] as JsonObject;
    return answer.then(
      (turn) => withMark(turn, mark),
      (error: unknown) => fallOver(request, first, error),
    );
  };

  async function* stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    const first = firstOf(request);
    let turn: ReturnType<typeof fallingOver> | undefined;
    let model = list[first] as Model;
    for (;;) {
      const events = eventsOf(model, sentTo(model, request))[Symbol.asyncIterator]();
      let step: IteratorResult<StreamEvent>;
      try {
        step = await events.next();
        if (!step.done && step.value.type === 'error') throw step.value.error;
      } catch (error) {
        await events.return?.();
        turn ??= fallingOver(request, first);
        if (!turn.fail(error)) throw error;
        model = turn.model;
        continue;
      }
      // From the first event on, this model has the turn.
      const mark = turn?.mark ?? ((done: ModelTurn) => withMark(done, firstTry[first] as JsonObject));
      for (; !step.done; step = await events.next()) {
        const event = step.value;
        yield event.type === 'turn-end' ? { ...event, turn: mark(event.turn) } : event;
      }
      return;
    }
  }

  return {
    provider: FALLBACK_PROVIDER,
    modelId: list.map((model) => `${model.provider}:${model.modelId}`).join(','),
    models: list,
    generate,
    stream,
  };
}

function eventsOf(model: Model, request: ModelRequest): AsyncIterable<StreamEvent> {
  if (model.stream !== undefined) return model.stream(request);
  return (async function* replayed() {
    yield* turnStreamEvents(await model.generate(request));
  })();
}

const NONE_FAILED: readonly FailedModel[] = Object.freeze([]);

function marked(turn: ModelTurn, model: Model, member: number, failures: readonly FailedModel[]): ModelTurn {
  return withAnsweringModel(turn, answeredBy(model, member, failures));
}

function answeredBy(model: Model, member: number, failures: readonly FailedModel[]): AnsweringModel {
  return {
    provider: model.provider,
    modelId: model.modelId,
    member,
    ...(failures.length === 0 ? {} : { fellBackFrom: [...failures] }),
  };
}

function failedModel(model: Model, member: number, error: ProviderError): FailedModel {
  return {
    provider: model.provider,
    modelId: model.modelId,
    member,
    code: error.code,
    ...(error.status === undefined ? {} : { status: error.status }),
  };
}

/** The next model of the list not asked yet this turn, going round from the one that failed. */
function untriedAfter(failed: number, tried: ReadonlySet<number>, count: number): number | undefined {
  for (let step = 1; step < count; step += 1) {
    const candidate = (failed + step) % count;
    if (!tried.has(candidate)) return candidate;
  }
  return undefined;
}

function checkModels(models: readonly Model[]): void {
  if (!Array.isArray(models) || models.length === 0) {
    throw new InvalidLoopOptionsError('model', 'got an empty list; give one model, or a list of one or more.');
  }
  models.forEach((model: unknown, index) => {
    if (!isModel(model)) {
      throw new InvalidLoopOptionsError(
        `model[${index}]`,
        'give a model built by an adapter (createAnthropicModel, createOpenAIResponsesModel, createGoogleModel…).',
      );
    }
  });
}
