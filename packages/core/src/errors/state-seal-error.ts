import { ToolcircuitError } from './toolcircuit-error.js';

/**
 * Why a stored state's seal did not check out:
 * - `missing`: a key is configured and the state carries no seal (written unsealed, or its seal was removed);
 * - `unknown_key`: it is sealed under a key id that is not among the configured keys;
 * - `no_key`: it is sealed, but no key is configured to check it with;
 * - `mismatch`: its seal does not match its content under that key: the state was altered after it was sealed.
 */
export type StateSealProblem = 'missing' | 'unknown_key' | 'no_key' | 'mismatch';

/**
 * A paused or interrupted state's seal (its HMAC under the application's key, `LoopOptions.seal`) did not
 * check out, so nothing in it can be trusted: not its untrusted sources, not its pending calls. Nothing was
 * run. The message says what to fix.
 */
export class StateSealError extends ToolcircuitError {
  readonly kind = 'circuit' as const;
  readonly code = 'state_seal' as const;
  readonly problem: StateSealProblem;

  constructor(problem: StateSealProblem, what: string, fix: string) {
    super(`The ${what}'s seal does not check out: ${fix} Nothing was run.`);
    this.problem = problem;
  }
}
