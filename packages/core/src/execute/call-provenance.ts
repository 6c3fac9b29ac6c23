import type { JournalProvenance } from '../journal/journal.js';
import type { ToolResultPart } from '../messages/messages.js';
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
  if (gate === undefined) {
    const taintedBy = provenance?.countBefore(turn ?? 1) ?? 0;
    return { outputTrust, taintedBy };
  }
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
