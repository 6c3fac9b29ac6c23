import type { Catalogue } from '../catalogue/catalogue.js';
import type { Message, ToolResultPart } from '../messages/messages.js';
import type { ProvenanceOptions } from '../provenance/provenance-options.js';
import { type OpenReply, restoredSources, storedSources } from '../provenance/restored-sources.js';
import { RunProvenance } from '../provenance/run-provenance.js';
import { resumedProvenance } from '../provenance/start-provenance.js';
import type { TaintSource } from '../provenance/taint-source.js';

/** What a stored state (paused, interrupted) holds that its provenance is rebuilt from. */
export interface StoredRunState {
  readonly messages: readonly Message[];
  readonly turns: readonly unknown[];
  readonly provenance?: unknown;
}

/**
 * The provenance of a run continued from a stored state (`false` turns it off): the sources it lists,
 * checked against its conversation (see `restoredSources`). A state that lists none (written without
 * provenance, or by a version that did not keep it) is read the safe way: every result of an untrusted tool
 * in its conversation counts, as turn 0, and the open reply's results as the turn they were answered in.
 */
export function restoredProvenance(
  catalogue: Catalogue,
  options: ProvenanceOptions | false | undefined,
  state: StoredRunState,
  open?: OpenReply,
): RunProvenance | undefined {
  if (options === false) return undefined;
  const stored = storedSources(state.provenance);
  const sources = stored === undefined ? undefined : restoredSources(stored, state.messages, state.turns.length, open);
  const provenance = resumedProvenance(catalogue, options, state.messages, sources);
  if (provenance !== undefined && sources === undefined && open !== undefined) {
    for (const result of open.results) provenance.record(open.turn, result);
  }
  return provenance;
}

/**
 * The untrusted sources `results` make when answered in `turn`, as the run's provenance settings judge them
 * (a trusted tool's result makes none; none at all when provenance is off). For a durable store that goes
 * on from the results it recorded for a turn: they count from that turn, as they did in the run.
 */
export function untrustedSourcesOf(
  catalogue: Catalogue,
  options: ProvenanceOptions | false | undefined,
  turn: number,
  results: readonly ToolResultPart[],
): TaintSource[] {
  if (options === false) return [];
  const provenance = new RunProvenance(catalogue, options ?? {});
  for (const result of results) provenance.record(turn, result);
  return provenance.sources();
}
