import { ToolcircuitError } from '@toolcircuit/core';

/**
 * This worker no longer holds the run it is writing for (another worker recovered it), or the call is not
 * in the state the write expects. The write was refused, so the worker must stop: in particular a call
 * whose start could not be recorded is never run.
 */
export class ClaimLostError extends ToolcircuitError {
  readonly kind = 'circuit' as const;
  readonly code = 'claim_lost' as const;
  readonly runId: string;

  constructor(runId: string, problem: string) {
    super(
      `This worker can no longer write for run "${runId}": ${problem}. It stopped without running anything more; ` +
        'read the run to see which worker holds it now.',
    );
    this.runId = runId;
  }
}
