import { InvalidServerOptionError } from '../errors/invalid-server-option-error.js';
import type { RecoveryOptions } from './run-recovery.js';

/** The `recovery` option, checked when the server is created rather than at its first sweep. */
export function checkRecovery(recovery: RecoveryOptions | undefined): void {
  if (recovery === undefined) return;
  if (typeof recovery !== 'object' || recovery === null || typeof recovery.sessionFor !== 'function') {
    throw new InvalidServerOptionError(
      'recovery',
      "needs sessionFor(run) → the session of the run's human (run.humanId), or undefined to leave the run alone.",
    );
  }
  const { intervalMs, onRecovered, onError } = recovery;
  if (intervalMs !== undefined && !(Number.isSafeInteger(intervalMs) && intervalMs > 0)) {
    throw new InvalidServerOptionError(
      'recovery.intervalMs',
      `must be a positive whole number of milliseconds (got ${String(intervalMs)}).`,
    );
  }
  for (const [name, value] of [
    ['onRecovered', onRecovered],
    ['onError', onError],
  ] as const) {
    if (value !== undefined && typeof value !== 'function') {
      throw new InvalidServerOptionError(`recovery.${name}`, 'must be a function.');
    }
  }
}
