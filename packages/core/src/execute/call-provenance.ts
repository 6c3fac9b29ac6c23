import type { JournalProvenance } from '../journal/journal.js';
import type { ToolResultPart } from '../messages/messages.js';
import type { OutputTrust } from '../provenance/provenance-options.js';
import type { Attempt } from './attempt.js';
import type { Verdict } from './verdict.js';

/**
 * Records an answered call in the run's provenance when its content came from the tool: it ran (its own
 * error results included), or it threw and its message is quoted to the model. Refusals, timeouts and
 * aborts are the circuit's own words and carry nothing of the outside world.
 */
export function recordProvenance(attempt: Attempt, verdict: Verdict, result: ToolResultPart): void {
  const { provenance } = attempt.context;
  if (provenance === undefined) return;
  if (verdict.kind !== 'executed' && verdict.kind !== 'failed') return;
  provenance.record(attempt.context.turn ?? 1, result);
}

/** What the journal keeps of a call's provenance: its output's trust, the taint it was judged under, its gate. */
export function journalProvenanceOf(attempt: Attempt): JournalProvenance {
  const { provenance, turn } = attempt.context;
  const { gate } = attempt;
  const outputTrust = provenance?.trustOf(attempt.call.name) ?? 'untrusted';
  if (gate === undefined) return ungated(outputTrust, provenance?.countFor(turn ?? 1, attempt.call.id) ?? 0);
  const { request } = gate;
  return {
    outputTrust,
    taintedBy: request.untrustedSources.length,
    gate: {
      gatedBecause: request.gatedBecause,
      policy: gate.policy ?? 'pause',
      taintDigest: request.taintDigest,
      untrustedSources: request.untrustedSources,
      flaggedArguments: request.flaggedArguments.map(({ path, foundIn }) => ({ path, foundIn })),
    },
  };
}

/**
 * The provenance of an ungated call, frozen and shared with the previous entry when it reads the same (a
 * turn's calls mostly do): a journal keeps every entry, and this small object per entry was a fixed part of
 * its memory.
 */
function ungated(outputTrust: OutputTrust, taintedBy: number): JournalProvenance {
  const last = lastUngated[outputTrust];
  if (last !== undefined && last.taintedBy === taintedBy) return last;
  const made: JournalProvenance = Object.freeze({ outputTrust, taintedBy });
  lastUngated[outputTrust] = made;
  return made;
}

const lastUngated: Partial<Record<OutputTrust, JournalProvenance>> = {};
