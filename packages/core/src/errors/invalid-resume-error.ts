import { ToolcircuitError } from './toolcircuit-error.js';

/**
 * A paused run cannot be resumed as asked: the decisions do not match the pending calls, the paused state
 * was altered (an argument digest no longer matches its input), or another session tries to resume it.
 * Resuming anyway could run an irreversible call nobody confirmed, so the circuit stops.
 */
export class InvalidResumeError extends ToolcircuitError {
  readonly kind = 'circuit' as const;
  readonly code = 'invalid_resume' as const;

  constructor(problemAndFix: string) {
    super(`Cannot resume the paused run: ${problemAndFix}`);
  }
}
