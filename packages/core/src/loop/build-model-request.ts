import type { ModelRequest } from '../messages/model.js';
import { spotlightMessages, spotlightNote } from '../provenance/spotlight.js';
import type { LoopOptions } from './loop-options.js';
import type { LoopState } from './loop-state.js';

/** The request for the next model turn: the conversation so far and the run's model options. */
export function buildModelRequest(state: LoopState, options: Omit<LoopOptions, 'messages'>): ModelRequest {
  const { provenance } = state;
  const spotlit = provenance?.spotlightsAny() === true ? provenance : undefined;
  const system =
    spotlit === undefined
      ? options.system
      : `${options.system === undefined ? '' : `${options.system}\n\n`}${spotlightNote(spotlit.marker)}`;
  return {
    // A fresh array each turn: the model may keep it, the loop keeps appending to its own. Spotlit results
    // are wrapped here only, so the marker never reaches the run's messages or the journal.
    messages: spotlit === undefined ? [...state.messages] : spotlightMessages(state.messages, spotlit),
    tools: state.loadedTools?.requestTools() ?? options.catalogue.declarations,
    ...(state.loadedTools === undefined ? {} : { deferredTools: state.loadedTools.deferredTools() }),
    ...(system === undefined ? {} : { system }),
    ...(options.toolChoice === undefined ? {} : { toolChoice: options.toolChoice }),
    ...(options.parallelToolCalls === undefined ? {} : { parallelToolCalls: options.parallelToolCalls }),
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.providerOptions === undefined ? {} : { providerOptions: options.providerOptions }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
}
