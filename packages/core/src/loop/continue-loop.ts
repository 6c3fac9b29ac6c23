import { declaresTrustedOnly } from '../data-flow/check-data-flow-options.js';
import { startDataFlow } from '../data-flow/start-data-flow.js';
import { InvalidResumeError } from '../errors/invalid-resume-error.js';
import type { RunProvenance } from '../provenance/run-provenance.js';
import { resumedProvenance } from '../provenance/start-provenance.js';
import { checkLoopOptions } from './check-loop-options.js';
import type { InterruptedRun } from './interrupted-run.js';
import { loadedToolsOf } from './loaded-tools.js';
import type { LoopResult } from './loop-result.js';
import type { LoopState } from './loop-state.js';
import type { ResumeOptions } from './resume-loop.js';
import { driveLoop } from './run-loop.js';

/**
 * Continues a run the model interrupted (see `InterruptedRun`): asks the model again for the failed turn,
 * with the same run id, turn count and usage, and goes on as the run would have. Nothing already answered
 * runs again: the state's messages hold every result. Works in another process from a stored state.
 *
 * Throws {@link InvalidResumeError} for a state that is not one (unknown version, messages that end with a
 * call left unanswered).
 */
export function continueLoop(interrupted: InterruptedRun, options: ResumeOptions): Promise<LoopResult> {
  checkLoopOptions(options);
  const state = stateOf(interrupted);
  const loadedTools = loadedToolsOf(options.catalogue, interrupted.messages, interrupted.loadedTools);
  const provenance = dataFlowProvenance(options, interrupted);
  return driveLoop(
    {
      ...state,
      ...(provenance === undefined ? {} : { provenance }),
      ...(loadedTools === undefined ? {} : { loadedTools }),
    },
    options,
  );
}

/**
 * A continued run with data-flow options goes on with its provenance and its data flow, read from its
 * conversation: every untrusted result there counts, from turn 0 (the safe reading), and the data flow's
 * documents, extracted and vouched values and plan come back from the results that kept them.
 */
function dataFlowProvenance(options: ResumeOptions, interrupted: InterruptedRun): RunProvenance | undefined {
  if (options.dataFlow === undefined && !declaresTrustedOnly(options.catalogue)) return undefined;
  const provenance = resumedProvenance(options.catalogue, options.provenance, interrupted.messages, undefined);
  startDataFlow(provenance, options, interrupted.messages);
  return provenance;
}

/** The loop state an interrupted run is continued from; checked so that no call is left unanswered. */
export function stateOf(interrupted: InterruptedRun): LoopState {
  if (interrupted.version !== 1) {
    throw new InvalidResumeError(`unknown interrupted-run version ${String(interrupted.version)}.`);
  }
  const last = interrupted.messages.at(-1);
  if (last?.role === 'assistant' && typeof last.content !== 'string') {
    if (last.content.some((part) => part.type === 'tool_call')) {
      throw new InvalidResumeError('its messages end with calls that have no results.');
    }
  }
  return {
    runId: interrupted.runId,
    messages: [...interrupted.messages],
    turns: [...interrupted.turns],
    usage: interrupted.usage,
  };
}
