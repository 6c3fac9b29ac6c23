import { answerStoppedTurn, type OpenTurn } from './answer-stopped-turn.js';
import { appendReply } from './append-reply.js';
import { buildModelRequest } from './build-model-request.js';
import { callTasks } from './call-tasks.js';
import { executionContext } from './execution-context.js';
import type { ExecutionOutcome } from './executor.js';
import { finishLoop } from './finish-loop.js';
import { isAborted } from './is-aborted.js';
import type { CallEvent, LoopOptions, LoopResult, LoopState, LoopStatus } from './loop.js';
import { DEFAULT_MAX_TURNS } from './loop-defaults.js';
import type { LoopStreamEvent } from './loop-stream-event.js';
import { type AssistantMessage, toolCallsOf } from './messages.js';
import type { ModelTurn } from './model.js';
import type { PausedRun } from './paused-run.js';
import { pausedRunOf, pendingCallsOf } from './paused-run-of.js';
import { readModelTurn } from './read-model-turn.js';
import { settleCalls } from './settle-calls.js';
import type { TurnSource } from './turn-source.js';
import { addUsage } from './usage.js';

type Options = Omit<LoopOptions, 'messages'>;

/**
 * The circuit, as events: turns until the model answers without calls, the turn limit, a pause or an abort.
 * `runLoop` and `resumeLoop` drain it, `streamLoop` hands it to the application; there is one loop.
 *
 * When the consumer stops early (`return()`), `abandon` is called (to abort the run's signal) before running
 * calls are awaited, and a turn whose calls have no reply yet still gets one (see `answerStoppedTurn`), so
 * the conversation left behind can be continued: every call the model made is answered.
 */
export async function* loopEvents(
  state: LoopState,
  options: Options,
  source: TurnSource,
  abandon?: () => void,
): AsyncGenerator<LoopStreamEvent, LoopResult, undefined> {
  const progress: { open: OpenTurn | undefined } = { open: undefined };
  let threw = false;
  try {
    return yield* turns(state, options, source, abandon, progress);
  } catch (error) {
    threw = true;
    throw error;
  } finally {
    // Only a consumer's `return()` leaves a turn open without a throw: a failed run is not answered.
    if (!threw && progress.open !== undefined) {
      abandon?.();
      await answerStoppedTurn(state, progress.open, options);
    }
  }
}

async function* turns(
  state: LoopState,
  options: Options,
  source: TurnSource,
  abandon: (() => void) | undefined,
  progress: { open: OpenTurn | undefined },
): AsyncGenerator<LoopStreamEvent, LoopResult, undefined> {
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const { runId } = state;
  while (state.turns.length < maxTurns) {
    if (isAborted(options.signal)) return yield* endLoop(state, 'aborted');
    const turn = state.turns.length + 1;
    yield { type: 'turn-start', runId, turn };
    const request = buildModelRequest(state, options);
    const read = yield* readModelTurn(source, request, { runId, turn }, options.model.provider);
    if (read === undefined) return yield* endLoop(state, 'aborted');
    const { modelTurn, incomplete } = read;
    const calls = toolCallsOf(modelTurn.content);
    state.turns.push(modelTurn);
    state.usage = addUsage(state.usage, modelTurn.usage);
    state.messages.push(assistantMessageOf(modelTurn));
    const open: OpenTurn = { turn, calls, outcomes: new Array<ExecutionOutcome | undefined>(calls.length) };
    if (calls.length > 0) progress.open = open;
    await options.hooks?.onTurn?.({ runId, turn, modelTurn });
    yield { type: 'turn-end', runId, turn, modelTurn, incompleteToolCallIds: [...incomplete] };
    if (calls.length === 0) return yield* endLoop(state, 'completed');

    const cutByTokenLimit = modelTurn.stopReason.unified === 'max_tokens';
    const context = executionContext(options, runId, turn, options.confirmation ?? 'refuse');
    const tasks = callTasks(calls, incomplete, cutByTokenLimit, context).map((task) => ({
      ...task,
      // Recorded as each call settles, not as it is yielded: a stopped consumer's calls are still known.
      run: async () => {
        const outcome = await task.run();
        open.outcomes[task.index] = outcome;
        return outcome;
      },
    }));
    for await (const { outcome, event } of settleCalls(tasks, turn, runId, options, abandon)) {
      yield callVerdictEvent(event);
      if (outcome.verdict.kind !== 'awaiting_confirmation') {
        yield { type: 'tool-result', runId, turn, index: event.index, result: outcome.result };
      }
    }
    const outcomes = open.outcomes as ExecutionOutcome[];
    const pending = pendingCallsOf(calls, outcomes);
    if (pending.length > 0) {
      // A pause leaves the reply open on purpose: `resumeLoop` completes it.
      progress.open = undefined;
      return yield* endLoop(state, 'paused', pausedRunOf(state, options.session, pending, outcomes));
    }
    const message = await appendReply(state, turn, outcomes, options);
    progress.open = undefined;
    yield { type: 'reply', runId, turn, message };
    if (isAborted(options.signal)) return yield* endLoop(state, 'aborted');
  }
  return yield* endLoop(state, 'max_turns');
}

async function* endLoop(
  state: LoopState,
  status: LoopStatus,
  paused?: PausedRun,
): AsyncGenerator<LoopStreamEvent, LoopResult, undefined> {
  const result = finishLoop(state, status, paused);
  yield { type: 'loop-end', runId: state.runId, result };
  return result;
}

/** The event of a settled call; not a spread, which would read (and so hash) its input digest. */
function callVerdictEvent(event: CallEvent): LoopStreamEvent {
  return {
    type: 'call-verdict',
    runId: event.runId,
    turn: event.turn,
    index: event.index,
    call: event.call,
    verdict: event.verdict,
    result: event.result,
    durationMs: event.durationMs,
    get inputDigest(): string | null {
      return event.inputDigest;
    },
  };
}

function assistantMessageOf(turn: ModelTurn): AssistantMessage {
  return {
    role: 'assistant',
    content: turn.content,
    ...(turn.providerMetadata === undefined ? {} : { providerMetadata: turn.providerMetadata }),
  };
}
