import type { Interaction } from '../cassettes/cassette.js';
import type { ReplayMismatch } from './received-request.js';

/**
 * A replay ended with interactions nobody asked for, or with requests that matched none: the code under test
 * did not make the calls the cassette recorded. Thrown by `ReplayServer.assertDone()`.
 */
export class ReplayIncompleteError extends Error {
  readonly unserved: readonly Interaction[];
  readonly mismatches: readonly ReplayMismatch[];

  constructor(unserved: readonly Interaction[], mismatches: readonly ReplayMismatch[]) {
    const parts: string[] = [];
    if (unserved.length > 0) {
      const first = unserved[0]?.request;
      parts.push(
        `${unserved.length} interaction(s) never served (next: ${first?.method ?? '?'} ${first?.path ?? '?'})`,
      );
    }
    for (const mismatch of mismatches) {
      parts.push(`request #${mismatch.index + 1} mismatched: ${mismatch.reason}`);
    }
    super(`replay incomplete: ${parts.join('; ')}`);
    this.name = 'ReplayIncompleteError';
    this.unserved = unserved;
    this.mismatches = mismatches;
  }
}
