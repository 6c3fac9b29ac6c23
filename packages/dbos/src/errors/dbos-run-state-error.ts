import { ToolcircuitError } from '@toolcircuit/core';

/**
 * What was asked does not fit the run's state: approving a run that is not paused (still queued or running,
 * finished, cancelled, or decided already by someone else), or a run id no workflow has. Nothing was changed.
 */
export class DbosRunStateError extends ToolcircuitError {
  readonly kind = 'circuit' as const;
  readonly code = 'dbos_run_state' as const;
  readonly runId: string;
  /** The run's state when it was asked (`missing` when there is no such run). */
  readonly state: string;

  constructor(runId: string, state: string, problemAndFix: string) {
    super(`Run "${runId}" (${state}) ${problemAndFix} Nothing was changed.`);
    this.runId = runId;
    this.state = state;
  }
}
