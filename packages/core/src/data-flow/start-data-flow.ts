import type { Catalogue } from '../catalogue/catalogue.js';
import type { Message, ToolResultPart } from '../messages/messages.js';
import type { RunProvenance } from '../provenance/run-provenance.js';
import { declaresTrustedOnly } from './check-data-flow-options.js';
import type { DataFlowOptions } from './data-flow-options.js';
import { RunDataFlow } from './run-data-flow.js';

/** What a run's data flow is made from: the loop's options. */
export interface DataFlowSettings {
  readonly catalogue: Catalogue;
  readonly dataFlow?: DataFlowOptions;
  readonly system?: string;
}

/**
 * Where the data-flow options enter a run (started, resumed, continued): beside its provenance, which the
 * executor holds, read from the conversation the run goes on from (and the answered calls of a paused turn, which count
 * from that turn on, as they did). A run
 * has a data flow when it has data-flow options or a tool of its catalogue declares trusted-only arguments;
 * otherwise nothing is made and nothing changes.
 */
export function startDataFlow(
  provenance: RunProvenance | undefined,
  settings: DataFlowSettings,
  messages: readonly Message[],
  paused?: { readonly turn: number; readonly results: readonly (ToolResultPart | null)[] },
): void {
  if (provenance === undefined) return;
  if (settings.dataFlow === undefined && !declaresTrustedOnly(settings.catalogue)) return;
  const flow = new RunDataFlow(settings.catalogue, provenance, settings.dataFlow ?? {}, settings.system);
  provenance.dataFlow = flow;
  flow.readConversation(messages);
  if (paused !== undefined) flow.readResults(paused.results, paused.turn);
}
