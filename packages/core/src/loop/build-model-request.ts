import type { ModelRequest } from '../messages/model.js';
import type { LoopOptions } from './loop-options.js';
import type { LoopState } from './loop-state.js';

/** The request for the next model turn: the conversation so far and the run's model options. */
export function buildModelRequest(state: LoopState, options: Omit<LoopOptions, 'messages'>): ModelRequest {
  return {
    // A fresh array each turn: the model may keep it, the loop keeps appending to its own.
    messages: [...state.messages],
    tools: options.catalogue.declarations,
    ...(options.system === undefined ? {} : { system: options.system }),
    ...(options.toolChoice === undefined ? {} : { toolChoice: options.toolChoice }),
    ...(options.parallelToolCalls === undefined ? {} : { parallelToolCalls: options.parallelToolCalls }),
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.providerOptions === undefined ? {} : { providerOptions: options.providerOptions }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
}
