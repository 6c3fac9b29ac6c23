import type { ModelRequest } from '../messages/model.js';
import { spotlightMessages, spotlightNote } from '../provenance/spotlight.js';
import type { LoopOptions } from './loop-options.js';
import type { LoopState } from './loop-state.js';
import type { PlannedStep } from './plan-step.js';

/**
 * The request for the next model turn: the conversation so far, the run's model options, and what the step's
 * plan chose (tools offered, tool choice, system text).
 */
export function buildModelRequest(
  state: LoopState,
  options: Omit<LoopOptions, 'messages'>,
  step: PlannedStep,
): ModelRequest {
  const { provenance } = state;
  const spotlit = provenance?.spotlightsAny() === true ? provenance : undefined;
  const system =
    spotlit === undefined
      ? step.system
      : `${step.system === undefined ? '' : `${step.system}\n\n`}${spotlightNote(spotlit.marker)}`;
  return {
    // A fresh array each turn: the model may keep it, the loop keeps appending to its own. Spotlit results
    // are wrapped here only, so the marker never reaches the run's messages or the journal.
    messages: spotlit === undefined ? [...state.messages] : spotlightMessages(state.messages, spotlit),
    tools: step.tools,
    ...(step.deferredTools === undefined ? {} : { deferredTools: step.deferredTools }),
    ...(system === undefined ? {} : { system }),
    ...(step.toolChoice === undefined ? {} : { toolChoice: step.toolChoice }),
    ...(step.hostedTools === undefined || step.hostedTools.length === 0 ? {} : { hostedTools: step.hostedTools }),
    ...(options.cacheTools === undefined ? {} : { cacheTools: options.cacheTools }),
    ...(options.parallelToolCalls === undefined ? {} : { parallelToolCalls: options.parallelToolCalls }),
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.providerOptions === undefined ? {} : { providerOptions: options.providerOptions }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
}
