import type { JournalEntry } from '@toolcircuit/core';

/** An executed lookup's journal entry, as the executor hands it to a journal (synthetic). */
export function entry(runId: string, callId: string): JournalEntry {
  return {
    at: new Date().toISOString(),
    runId,
    sessionId: 's',
    humanId: 'h',
    turn: 1,
    callId,
    toolName: 'lookup_case',
    input: { number: callId },
    inputDigest: null,
    verdict: 'executed',
    durationMs: 1,
  };
}
