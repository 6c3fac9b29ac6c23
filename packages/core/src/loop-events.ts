import { appendReply } from './append-reply.js';
import { buildModelRequest } from './build-model-request.js';
import { callTasks } from './call-tasks.js';
import { executionContext } from './execution-context.js';
import type { ExecutionOutcome } from './executor.js';
import { finishLoop } from './finish-loop.js';
import { isAborted } from './is-aborted.js';
import type { LoopOptions, LoopResult, LoopState, LoopStatus } from './loop.js';
import { DEFAULT_MAX_TURNS } from './loop-defaults.js';
import type { LoopStreamEvent } from './loop-stream-event.js';
import { type AssistantMessage, type ToolCallPart, toolCallsOf } from './messages.js';
import type { ModelTurn } from './model.js';
import type { PausedRun } from './paused-run.js';
import { pausedRunOf, pendingCallsOf } from './paused-run-of.js';
import { readModelTurn } from './read-model-turn.js';
import { settleCalls } from './settle-calls.js';
import type { TurnSource } from './turn-source.js';
import { addUsage } from './usage.js';

/**
 * The circuit, as events: turns until the model answers without calls, the turn limit, a pause or an abort.
 * `runLoop` and `resumeLoop` drain it, `streamLoop` hands it to the application; there is one loop.
 *
 * `abandon` is called when the consumer stops while calls are running, before they are awaited, so that
 * they can be aborted instead of finishing unobserved.
 */
export async function* loopEvents(
  state: LoopState,
  options: Omit<LoopOptions, 'messages'>,
  source: TurnSource,
  abandon?: () => void,
): AsyncGenerator<LoopStreamEvent, LoopResult, undefined> {
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const { runId } = state;
  while (state.turns.length < maxTurns) {
    if (isAborted(options.signal)) return yield* endLoop(state, 'aborted');
    const turn = state.turns.length + 1;
    yield { type: 'turn-start', runId, turn };
    const read = yield* readModelTurn(
      source,
      buildModelRequest(state, options),
      { runId, turn },
      options.model.provider,
    );
    if (read === undefined) return yield* endLoop(state, 'aborted');
    const { modelTurn, incomplete } = read;
    state.turns.push(modelTurn);
    state.usage = addUsage(state.usage, modelTurn.usage);
    state.messages.push(assistantMessageOf(modelTurn));
    await options.hooks?.onTurn?.({ runId, turn, modelTurn });
    yield { type: 'turn-end', runId, turn, modelTurn, incompleteToolCallIds: [...incomplete] };

    const calls = toolCallsOf(modelTurn.content);
    if (calls.length === 0) return yield* endLoop(state, 'completed');
    const outcomes = yield* answerCalls(state, turn, calls, modelTurn, incomplete, options, abandon);
    const pending = pendingCallsOf(calls, outcomes);
    if (pending.length > 0)
      return yield* endLoop(state, 'paused', pausedRunOf(state, options.session, pending, outcomes));

    const message = await appendReply(state, turn, outcomes, options);
    yield { type: 'reply', runId, turn, message };
    if (isAborted(options.signal)) return yield* endLoop(state, 'aborted');
  }
  return yield* endLoop(state, 'max_turns');
}

/** One outcome per call, in call order; each call's events are yielded as soon as it settles. */
async function* answerCalls(
  state: LoopState,
  turn: number,
  calls: readonly ToolCallPart[],
  modelTurn: ModelTurn,
  incomplete: ReadonlySet<string>,
  options: Omit<LoopOptions, 'messages'>,
  abandon: (() => void) | undefined,
): AsyncGenerator<LoopStreamEvent, ExecutionOutcome[], undefined> {
  const context = executionContext(options, state.runId, turn, options.confirmation ?? 'refuse');
  const outcomes = new Array<ExecutionOutcome | undefined>(calls.length);
  const tasks = callTasks(calls, incomplete, modelTurn.stopReason.unified === 'max_tokens', context).map((task) => ({
    ...task,
    // Recorded here, not from what was yielded: if the consumer stops, the calls still settle and are known.
    run: async () => {
      const outcome = await task.run();
      outcomes[task.index] = outcome;
      return outcome;
    },
  }));
  let answered = false;
  try {
    for await (const { outcome, event } of settleCalls(tasks, turn, state.runId, options, abandon)) {
      yield { type: 'call-verdict', ...event };
      if (outcome.verdict.kind !== 'awaiting_confirmation') {
        yield { type: 'tool-result', runId: state.runId, turn, index: event.index, result: outcome.result };
      }
    }
    answered = true;
  } finally {
    if (!answered) closeStoppedTurn(state, outcomes);
  }
  return outcomes as ExecutionOutcome[];
}

/**
 * The consumer stopped (or something threw) while calls ran; they have all settled by now. When every call
 * has a result the reply still goes into the conversation, so a stopped run's messages can be continued:
 * every call the model made is answered. No hook fires: the run is over.
 */
function closeStoppedTurn(state: LoopState, outcomes: readonly (ExecutionOutcome | undefined)[]): void {
  const results = [];
  for (const outcome of outcomes) {
    if (outcome === undefined || outcome.verdict.kind === 'awaiting_confirmation') return;
    results.push(outcome.result);
  }
  state.messages.push({ role: 'tool', content: results });
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

function assistantMessageOf(turn: ModelTurn): AssistantMessage {
  return {
    role: 'assistant',
    content: turn.content,
    ...(turn.providerMetadata === undefined ? {} : { providerMetadata: turn.providerMetadata }),
  };
}
