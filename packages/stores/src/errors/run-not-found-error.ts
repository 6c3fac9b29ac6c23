import { ToolcircuitError } from '@toolcircuit/core';

/** No run with this id in the store. */
export class RunNotFoundError extends ToolcircuitError {
  readonly kind = 'configuration' as const;
  readonly code = 'run_not_found' as const;
  readonly runId: string;

  constructor(runId: string) {
    super(
      `There is no run "${runId}" in this store. Check the id, and that this worker uses the same store (file, ` +
        'database and schema) as the one that paused the run.',
    );
    this.runId = runId;
  }
}
