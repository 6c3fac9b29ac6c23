import type { Catalogue } from '../catalogue/catalogue.js';
import type { Message } from '../messages/messages.js';
import type { ProvenanceOptions } from './provenance-options.js';
import { RunProvenance } from './run-provenance.js';
import type { TaintSource } from './taint-source.js';

/**
 * The provenance of a new run (`false` turns it off): tool results already in the starting conversation
 * count as untrusted sources of turn 0.
 */
export function startProvenance(
  catalogue: Catalogue,
  options: ProvenanceOptions | false | undefined,
  messages: readonly Message[],
): RunProvenance | undefined {
  if (options === false) return undefined;
  const provenance = new RunProvenance(catalogue, options ?? {});
  provenance.readConversation(messages, true);
  return provenance;
}

/** The provenance of a resumed run: the sources it had recorded, and its messages' results marked again. */
export function resumedProvenance(
  catalogue: Catalogue,
  options: ProvenanceOptions | false | undefined,
  messages: readonly Message[],
  sources: readonly TaintSource[] | undefined,
): RunProvenance | undefined {
  if (options === false) return undefined;
  const provenance = new RunProvenance(catalogue, options ?? {}, sources ?? []);
  // A paused run from before provenance was tracked has no sources: read its results as a new run would.
  provenance.readConversation(messages, sources === undefined);
  return provenance;
}
