import { InvalidLoopOptionsError } from '../errors/invalid-loop-options-error.js';
import { PausedRunResumedError } from '../errors/paused-run-resumed-error.js';
import { jsonDigest } from '../json/canonical-json.js';
import type { ConfirmationStore } from '../session/confirm.js';
import type { ResumeTokenStore } from '../session/resume-tokens.js';
import type { PausedRun } from './paused-run.js';

/**
 * Spends the paused run's resume token, once every check has passed and before anything runs: in the
 * engine's store when it passes one, else in the session's confirmation store. Throws
 * {@link PausedRunResumedError} when it was spent already (nothing runs), and `InvalidLoopOptionsError` when
 * the confirmation store cannot record tokens (it could not tell a second resume from the first).
 */
export async function spendResumeToken(
  paused: PausedRun,
  confirmations: ConfirmationStore,
  tokens: ResumeTokenStore | undefined,
): Promise<void> {
  const store = tokens ?? tokenStoreOf(confirmations);
  // A state written before tokens existed: its digest is the same for every copy of it.
  const token = typeof paused.resumeToken === 'string' ? paused.resumeToken : `digest:${jsonDigest(paused)}`;
  if (!(await store.spendResumeToken(token))) throw new PausedRunResumedError(paused.runId, paused.turn);
}

function tokenStoreOf(confirmations: ConfirmationStore): ResumeTokenStore {
  if (typeof confirmations.spendResumeToken === 'function') return confirmations as ResumeTokenStore;
  throw new InvalidLoopOptionsError(
    'session.confirmations',
    'the confirmation store cannot record resume tokens, so a paused run given twice would be resumed twice. ' +
      'Give it a spendResumeToken(token) method that records the token atomically (e.g. a unique key in your ' +
      'database) and returns false when it was recorded before, or use InMemoryConfirmations.',
  );
}
