import { ToolcircuitError } from '@toolcircuit/core';

/** `start` was given a run id the store already holds. */
export class RunAlreadyExistsError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'run_already_exists' as const;
  readonly runId: string;

  constructor(runId: string) {
    super(
      `A run "${runId}" already exists in this store. Give every run its own id, or leave it out to get a new one.`,
    );
    this.runId = runId;
  }
}
