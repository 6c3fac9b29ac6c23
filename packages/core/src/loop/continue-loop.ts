import { startRunCostMeter } from '../cost/run-cost-meter.js';
import { startDataFlow } from '../data-flow/start-data-flow.js';
import { InvalidResumeError } from '../errors/invalid-resume-error.js';
import { checkStateSeal } from '../seal/state-seal.js';
import { checkLoopOptions } from './check-loop-options.js';
import { INTERRUPTED_RUN_SEAL, type InterruptedRun } from './interrupted-run.js';
import { loadedToolsOf } from './loaded-tools.js';
import type { LoopResult } from './loop-result.js';
import type { LoopState } from './loop-state.js';
import { restoredProvenance } from './restored-provenance.js';
import type { ResumeOptions } from './resume-loop.js';
import { driveLoop } from './run-loop.js';

/**
 * Continues a run the model interrupted (see `InterruptedRun`): asks the model again for the failed turn,
 * with the same run id, turn count and usage, and goes on as the run would have. Nothing already answered
 * runs again: the state's messages hold every result. Works in another process from a stored state.
 *
 * The run's untrusted sources come with the state, so what was gated before the failure stays gated; a
 * state that carries none (written by an earlier version) counts every tool result in its messages as
 * untrusted. With `seal`, the state must carry a seal that checks out.
 *
 * Throws {@link InvalidResumeError} for a state that is not one (unknown version, messages that end with a
 * call left unanswered), `StateSealError` for a seal that does not check out. Nothing runs then. (Every
 * error is a rejection of the returned promise.)
 */
export async function continueLoop(interrupted: InterruptedRun, options: ResumeOptions): Promise<LoopResult> {
  checkLoopOptions(options);
  checkStateSeal(INTERRUPTED_RUN_SEAL, interrupted, options.seal, 'interrupted run');
  const state = stateOf(interrupted, options);
  const provenance = restoredProvenance(options.catalogue, options.provenance, interrupted);
  // The data flow's documents, extracted and vouched values and plan come back from the results that kept them.
  startDataFlow(provenance, options, interrupted.messages);
  const loadedTools = loadedToolsOf(options.catalogue, interrupted.messages, interrupted.loadedTools);
  return driveLoop(
    {
      ...state,
      ...(provenance === undefined ? {} : { provenance }),
      ...(loadedTools === undefined ? {} : { loadedTools }),
    },
    options,
  );
}

/** The loop state an interrupted run is continued from; checked so that no call is left unanswered. */
function stateOf(interrupted: InterruptedRun, options: ResumeOptions): LoopState {
  if (interrupted.version !== 1) {
    throw new InvalidResumeError(`unknown interrupted-run version ${String(interrupted.version)}.`);
  }
  const lists: readonly unknown[] = [interrupted.messages, interrupted.turns];
  if (!lists.every((list) => Array.isArray(list))) {
    throw new InvalidResumeError('its messages or turns are not lists.');
  }
  const last = interrupted.messages.at(-1);
  if (last?.role === 'assistant' && typeof last.content !== 'string') {
    if (last.content.some((part) => part.type === 'tool_call')) {
      throw new InvalidResumeError('its messages end with calls that have no results.');
    }
  }
  // The turn numbers calls are judged by follow the turns played: the failed turn is the one after them.
  if (interrupted.turn !== interrupted.turns.length + 1) {
    throw new InvalidResumeError(
      `it failed on turn ${String(interrupted.turn)} but lists ${interrupted.turns.length} turns played.`,
    );
  }
  return {
    runId: interrupted.runId,
    messages: [...interrupted.messages],
    turns: [...interrupted.turns],
    usage: interrupted.usage,
    cost: startRunCostMeter(options.prices, interrupted.turns, options.model),
  };
}
