import { withoutKept } from '../data-flow/model-view.js';
import type { ModelRequest } from '../messages/model.js';
import { outputRequest } from '../output/output-request.js';
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
  const messages = spotlit === undefined ? [...state.messages] : spotlightMessages(state.messages, spotlit);
  const request: Writable<ModelRequest> = {
    // A fresh array each turn: the model may keep it, the loop keeps appending to its own. Spotlit results
    // are wrapped here only, so the marker never reaches the run's messages or the journal. What the
    // data-flow options keep with results (a quarantined document) is left out of it.
    messages: provenance?.dataFlow === undefined ? messages : withoutKept(messages),
    // The run's data-flow options may add tools of their own (a plan declaration, an extraction).
    tools: provenance?.dataFlow === undefined ? step.tools : provenance.dataFlow.offered(step.tools),
  };
  // Assigned rather than spread from `{}` or `{ key }` per option: no throw-away object per option and turn.
  if (step.deferredTools !== undefined) request.deferredTools = step.deferredTools;
  if (system !== undefined) request.system = system;
  if (step.toolChoice !== undefined) request.toolChoice = step.toolChoice;
  if (step.hostedTools !== undefined && step.hostedTools.length > 0) request.hostedTools = step.hostedTools;
  if (options.cacheTools !== undefined) request.cacheTools = options.cacheTools;
  if (options.parallelToolCalls !== undefined) request.parallelToolCalls = options.parallelToolCalls;
  if (options.maxOutputTokens !== undefined) request.maxOutputTokens = options.maxOutputTokens;
  if (options.temperature !== undefined) request.temperature = options.temperature;
  if (options.providerOptions !== undefined) request.providerOptions = options.providerOptions;
  if (options.signal !== undefined) request.signal = options.signal;
  // The run's structured answer (the output seam): its format, and "answer now" on a corrective turn.
  if (options.output !== undefined) Object.assign(request, outputRequest(options.output, state.messages));
  return request;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };
