import { type Eventually, isPromiseLike } from '../async/eventually.js';
import { isAborted } from '../async/is-aborted.js';
import { withContextPolicy } from '../context/context-turns.js';
import { meterTurn } from '../cost/run-cost-meter.js';
import type { ExecutionOutcome } from '../execute/execution-outcome.js';
import type { WithOneModel } from '../fallback/one-model.js';
import { type AssistantMessage, type ToolCallPart, toolCallsOf } from '../messages/messages.js';
import type { Model } from '../messages/model.js';
import type { ModelTurn } from '../messages/model-turn.js';
import { addUsage } from '../messages/usage.js';
import { settleAnswer } from '../output/settle-answer.js';
import { withProviderPartMarks } from '../provenance/provider-part-marks.js';
import { stopReached } from '../step/stop-reached.js';
import { answerStoppedTurn, type OpenTurn } from './answer-stopped-turn.js';
import { appendReply } from './append-reply.js';
import { buildModelRequest } from './build-model-request.js';
import { callVerdictEventOf } from './call-events.js';
import { callTasks } from './call-tasks.js';
import { executionContext } from './execution-context.js';
import { finishLoop } from './finish-loop.js';
import { interruptedRunOf } from './interrupted-run.js';
import { DEFAULT_MAX_TURNS } from './loop-defaults.js';
import type { LoopOptions } from './loop-options.js';
import type { LoopResult, LoopStatus } from './loop-result.js';
import type { LoopState } from './loop-state.js';
import type { EmitLoopEvent } from './loop-stream-event.js';
import { LoopStreamStopped } from './loop-stream-stopped.js';
import { noteProviderParts } from './note-provider-parts.js';
import type { PausedRun } from './paused-run.js';
import { pausedRunOf, pendingCallsOf } from './paused-run-of.js';
import { type PlannedStep, planStep } from './plan-step.js';
import { generatedTurnRead, type ModelTurnRead, readModelTurn, reportModelError } from './read-model-turn.js';
import { retryDelayMs, waitUnlessAborted } from './retry-policy.js';
import { type SettledCall, settleCalls } from './settle-calls.js';
import type { TurnSource } from './turn-source.js';
import { growingCallIdsOf, renamedIds, withUniqueCallIds } from './unique-call-ids.js';

/** A fallback list is one `fallbackModel` by now (see `withOneModel`): the circuit asks one model. */
type Options = WithOneModel<Omit<LoopOptions, 'messages'>>;

/**
 * The circuit: turns until the model answers without calls (a turn the provider paused is asked to go on),
 * the turn limit, a pause or an abort. `runLoop`
 * and `resumeLoop` run it without events, `streamLoop` with; there is one loop.
 *
 * When the reader stops (`emit` rejects with {@link LoopStreamStopped}), `abandon` is called (to abort the
 * run's signal) before running calls are awaited, and a turn whose calls have no reply yet still gets one
 * (see `answerStoppedTurn`), so the conversation left behind can be continued: every call the model made
 * is answered. The stop is then rethrown for `streamLoop` to end on.
 */
export async function runCircuit(
  state: LoopState,
  options: Options,
  source: (model: Model) => TurnSource,
  emit?: EmitLoopEvent,
  abandon?: () => void,
): Promise<LoopResult> {
  const progress: { open: OpenTurn | undefined } = { open: undefined };
  try {
    return await turns(state, options, withContextPolicy(source, state, options), emit, abandon, progress);
  } catch (error) {
    // Only a stopped reader leaves a turn to answer: a failed run is not answered.
    if (error instanceof LoopStreamStopped && progress.open !== undefined) {
      abandon?.();
      await answerStoppedTurn(state, progress.open, options);
    }
    throw error;
  }
}

async function turns(
  state: LoopState,
  options: Options,
  sourceOf: (model: Model) => TurnSource,
  emit: EmitLoopEvent | undefined,
  abandon: (() => void) | undefined,
  progress: { open: OpenTurn | undefined },
): Promise<LoopResult> {
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const { runId } = state;
  const runSource = sourceOf(options.model);
  // A run that plans nothing per step (no `prepareStep`, no `activeTools`, no deferred tools to load) makes
  // the same step every turn: it is planned once, not rebuilt per turn.
  const sameStepEachTurn =
    options.prepareStep === undefined && options.activeTools === undefined && state.loadedTools === undefined;
  let fixedStep: PlannedStep | undefined;
  for (;;) {
    // Between two steps (also right after a resume): a stop condition ends the run before the next call.
    if (options.stopWhen !== undefined) {
      const stoppedBy = await stopReached(state, options);
      if (stoppedBy !== undefined) return endLoop(state, 'stopped', emit, undefined, stoppedBy);
    }
    if (state.turns.length >= maxTurns) break;
    if (isAborted(options.signal)) return endLoop(state, 'aborted', emit);
    const turn = state.turns.length + 1;
    let step = fixedStep;
    if (step === undefined) {
      const planned = planStep(state, options, turn);
      step = isPromiseLike(planned) ? await planned : planned;
      if (sameStepEachTurn) fixedStep = step;
    }
    const { plan } = step;
    if (emit !== undefined) await emit({ type: 'turn-start', runId, turn, ...(plan === undefined ? {} : { plan }) });
    const request = buildModelRequest(state, options, step);
    const source = step.model === options.model ? runSource : sourceOf(step.model);
    let read: ModelTurnRead | undefined;
    for (let attempt = 1; ; attempt += 1) {
      let delayMs: number | undefined;
      const tag = { runId, turn };
      const interrupted = (error: unknown) => {
        delayMs = isAborted(options.signal) ? undefined : retryDelayMs(options.retry, attempt, error);
        return delayMs === undefined ? interruptedRunOf(state, turn, error, plan, options.seal) : undefined;
      };
      let generated = false;
      try {
        if (source.kind === 'generate') {
          // The model's own promise, awaited here rather than through a `then` of the reader: one promise
          // and one hop fewer per step.
          const modelTurn = await source.generate(request);
          generated = true;
          read = generatedTurnRead(modelTurn, request);
        } else {
          read = await readModelTurn(source, request, tag, step.model.provider, emit, interrupted);
        }
        break;
      } catch (error) {
        // A model that failed (not a malformed turn it returned): reported as the stream reader does.
        if (source.kind === 'generate' && !generated) {
          if (isAborted(request.signal)) {
            read = undefined;
            break;
          }
          await reportModelError(error, tag, emit, interrupted);
        }
        if (delayMs === undefined) throw error;
        const failure = error instanceof Error ? error : new Error(String(error));
        if (emit !== undefined) await emit({ type: 'retry', runId, turn, attempt, delayMs, error: failure });
        const retried = options.hooks?.onRetry?.({ runId, turn, attempt, delayMs, error: failure });
        if (isPromiseLike(retried)) await retried;
        if (!(await waitUnlessAborted(delayMs, options.signal))) return endLoop(state, 'aborted', emit);
      }
    }
    if (read === undefined) return endLoop(state, 'aborted', emit);
    const identified = withUniqueCallIds(read.modelTurn, turn, growingCallIdsOf(state.messages));
    const incomplete = identified === read.modelTurn ? read.incomplete : renamedIds(read.incomplete, identified);
    // Provider parts the adapter did not understand may carry outside content: marked like a hosted result.
    const modelTurn = withProviderPartMarks(identified);
    const calls = toolCallsOf(modelTurn.content);
    // Tools the provider's own search loaded during this turn may be called in it.
    if (modelTurn.loadedTools !== undefined) state.loadedTools?.add(modelTurn.loadedTools);
    state.turns.push(modelTurn);
    state.usage = addUsage(state.usage, modelTurn.usage);
    const cost = meterTurn(state.cost, modelTurn, step.model);
    state.messages.push(assistantMessageOf(modelTurn));
    // A hosted tool's result is in the context from where it stood in the turn: the calls after it are judged with it.
    if (modelTurn.untrustedContent !== undefined) state.provenance?.recordUntrustedContent(turn, modelTurn);
    const noted = noteProviderParts(options.journal, options.session, runId, turn, modelTurn, cost);
    if (isPromiseLike(noted)) await noted;
    const open: OpenTurn = { turn, calls, outcomes: new Array<ExecutionOutcome | undefined>(calls.length) };
    if (calls.length > 0) progress.open = open;
    // Awaited only when there is something to wait for: a promise per step is a cost the loop need not pay.
    const observed = options.hooks?.onTurn?.({ runId, turn, modelTurn, ...(plan === undefined ? {} : { plan }) });
    if (isPromiseLike(observed)) await observed;
    if (emit !== undefined) {
      await emit({ type: 'turn-end', runId, turn, modelTurn, incompleteToolCallIds: [...incomplete] });
    }
    if (calls.length === 0) {
      // A turn the provider paused (Anthropic's `pause_turn`: a long server-tool turn cut in two) is no answer
      // yet: sent back as it is, it goes on. It counts as a turn, so `maxTurns` bounds a provider that keeps pausing.
      if (modelTurn.stopReason.unified === 'pause') continue;
      // A run with `output` (the output seam): the answer is validated, or asked for again once.
      const { output } = options;
      if (output !== undefined && (await settleAnswer(state, output, modelTurn, turn < maxTurns)) === 'correct') {
        continue;
      }
      return endLoop(state, 'completed', emit);
    }

    const cutByTokenLimit = modelTurn.stopReason.unified === 'max_tokens';
    const mode = options.confirmation ?? 'refuse';
    const context = executionContext(options, runId, turn, mode, state.provenance, step, state.loadedTools);
    const tasks = callTasks(calls, incomplete, cutByTokenLimit, context);
    // A call's verdict and result go out back to back: the stream queues the result behind the unread
    // verdict (see `pullEvents`), one hand-over for both, and nothing runs between them either way.
    const deliver =
      emit === undefined
        ? undefined
        : ({ outcome, event }: SettledCall): Eventually<void> => {
            const verdict = emit('type' in event ? event : callVerdictEventOf(event));
            if (outcome.verdict.kind === 'awaiting_confirmation') return verdict;
            const result = emit({ type: 'tool-result', runId, turn, index: event.index, result: outcome.result });
            // An emitter that refused the verdict (the reader stopped) refuses the result too: one rejection
            // is awaited, the other must not go unhandled.
            if (isPromiseLike(verdict) && verdict !== result) Promise.resolve(verdict).catch(ignore);
            return result;
          };
    // Each outcome is recorded as its call settles, not as it is delivered: a stopped reader's calls are known.
    const settling = settleCalls(tasks, turn, runId, options, deliver, abandon, (index, outcome) => {
      open.outcomes[index] = outcome;
    });
    if (isPromiseLike(settling)) await settling;
    const outcomes = open.outcomes as ExecutionOutcome[];
    const answered = withRepairedCalls(state, calls, outcomes);
    // Before a pause, so the paused run carries what this turn's searches (repaired ones too) loaded.
    state.loadedTools?.loadFound(answered, outcomes);
    const pending = pendingCallsOf(answered, outcomes);
    if (pending.length > 0) {
      // A pause leaves the reply open on purpose: `resumeLoop` completes it.
      progress.open = undefined;
      return endLoop(state, 'paused', emit, pausedRunOf(state, options.session, pending, outcomes, plan, options.seal));
    }
    const replied = appendReply(state, turn, outcomes, options);
    const message = isPromiseLike(replied) ? await replied : replied;
    progress.open = undefined;
    if (emit !== undefined) await emit({ type: 'reply', runId, turn, message });
    if (isAborted(options.signal)) return endLoop(state, 'aborted', emit);
  }
  return endLoop(state, 'max_turns', emit);
}

/**
 * The turn's calls as they were answered: a call the repair hook rewrote replaces the original in the
 * conversation (same id, same place), so the reply pairs with what was checked and run, and a paused
 * repaired call is resumed with the arguments the human is shown. The original stays in `turns` and the
 * journal.
 */
function withRepairedCalls(
  state: LoopState,
  calls: readonly ToolCallPart[],
  outcomes: readonly ExecutionOutcome[],
): readonly ToolCallPart[] {
  if (!anyRepaired(outcomes)) return calls;
  const byId = new Map<string, ToolCallPart>();
  for (const outcome of outcomes)
    if (outcome.repairedCall !== undefined) byId.set(outcome.repairedCall.id, outcome.repairedCall);
  const index = state.messages.length - 1;
  const message = state.messages[index];
  if (message?.role === 'assistant') {
    const content = message.content.map((part) => (part.type === 'tool_call' ? (byId.get(part.id) ?? part) : part));
    state.messages[index] = { ...message, content };
  }
  return calls.map((call) => byId.get(call.id) ?? call);
}

/** A loop rather than `some`: asked every turn, and no callback to allocate for the usual "none". */
function anyRepaired(outcomes: readonly ExecutionOutcome[]): boolean {
  for (const outcome of outcomes) if (outcome.repairedCall !== undefined) return true;
  return false;
}

async function endLoop(
  state: LoopState,
  status: LoopStatus,
  emit: EmitLoopEvent | undefined,
  paused?: PausedRun,
  stoppedBy?: string,
): Promise<LoopResult> {
  const result = finishLoop(state, status, paused, stoppedBy);
  if (emit !== undefined) await emit({ type: 'loop-end', runId: state.runId, result });
  return result;
}

function assistantMessageOf(turn: ModelTurn): AssistantMessage {
  // Two literals rather than a spread of `{}` or `{ providerMetadata }`: no throw-away object per turn.
  const { providerMetadata, untrustedContent } = turn;
  if (untrustedContent !== undefined) {
    return {
      role: 'assistant',
      content: turn.content,
      ...(providerMetadata === undefined ? {} : { providerMetadata }),
      untrustedContent,
    };
  }
  if (providerMetadata === undefined) return { role: 'assistant', content: turn.content };
  return { role: 'assistant', content: turn.content, providerMetadata };
}

function ignore(): void {}
