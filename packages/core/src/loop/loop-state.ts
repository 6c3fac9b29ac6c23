import { type RunCostMeter, startRunCostMeter } from '../cost/run-cost-meter.js';
import { startDataFlow } from '../data-flow/start-data-flow.js';
import type { Message } from '../messages/messages.js';
import type { ModelTurn } from '../messages/model-turn.js';
import { emptyUsage, type Usage } from '../messages/usage.js';
import type { RunAnswer } from '../output/settle-answer.js';
import { nodeCrypto } from '../platform/node-crypto.js';
import type { RunProvenance } from '../provenance/run-provenance.js';
import { startProvenance } from '../provenance/start-provenance.js';
import { type LoadedTools, loadedToolsOf } from './loaded-tools.js';
import type { LoopOptions } from './loop-options.js';

/** What the loop carries from turn to turn; also what a paused run is rebuilt into. */
export interface LoopState {
  readonly runId: string;
  readonly messages: Message[];
  readonly turns: ModelTurn[];
  usage: Usage;
  /** What each turn cost, priced as it was read (see `LoopResult.cost`). */
  readonly cost: RunCostMeter;
  /** Untrusted results that entered the run; absent when provenance is off. */
  readonly provenance?: RunProvenance;
  /** The deferred tools loaded so far; absent when the catalogue defers nothing. */
  readonly loadedTools?: LoadedTools;
  /** The structured answer, once a run with `output` has one (or the model refused it). */
  answer?: RunAnswer;
}

/** The state of a run that has not asked the model yet. */
export function startLoopState(options: LoopOptions): LoopState {
  return {
    runId: options.runId ?? nodeCrypto().randomUUID(),
    messages: [...options.messages],
    turns: [],
    usage: emptyUsage,
    cost: startRunCostMeter(options.prices),
    ...provenanceOf(options),
    ...loadedOf(options),
  };
}

function loadedOf(options: LoopOptions): { loadedTools?: LoadedTools } {
  const loadedTools = loadedToolsOf(options.catalogue, options.messages);
  return loadedTools === undefined ? {} : { loadedTools };
}

function provenanceOf(options: LoopOptions): { provenance?: RunProvenance } {
  const provenance = startProvenance(options.catalogue, options.provenance, options.messages);
  startDataFlow(provenance, options, options.messages);
  return provenance === undefined ? {} : { provenance };
}
