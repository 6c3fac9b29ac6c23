import { ToolcircuitError } from './toolcircuit-error.js';

/**
 * This paused run was resumed already: its resume token is spent (`PausedRun.resumeToken`). A paused run is
 * resumed once, so that a stored state given twice (a retried request, a copy kept elsewhere) can never run
 * an approved call twice. Nothing was run; the first resume's result is the run's.
 */
export class PausedRunResumedError extends ToolcircuitError {
  readonly kind = 'circuit' as const;
  readonly code = 'paused_run_resumed' as const;
  readonly runId: string;
  readonly turn: number;

  constructor(runId: string, turn: number) {
    super(
      `The paused run "${runId}" (turn ${turn}) was resumed already: a paused run is resumed once. Nothing was ` +
        'run. Continue from the result of the first resume (a new pause has a new state to resume).',
    );
    this.runId = runId;
    this.turn = turn;
  }
}
