import { ToolcircuitError } from '@toolcircuit/core';
import type { RunStatus } from '../store/durable-store.js';

/**
 * Another resume or recovery claimed the run between this one's check and its claim. This is the race
 * of two workers on one paused run, lost: the other worker runs it, this one changed nothing.
 */
export class RunClaimConflictError extends ToolcircuitError {
  readonly kind = 'circuit' as const;
  readonly code = 'run_claim_conflict' as const;
  readonly runId: string;
  readonly status: RunStatus;

  constructor(runId: string, status: RunStatus) {
    super(
      `Run "${runId}" was claimed by another resume first (it is now "${status}"), so this one did nothing: a paused ` +
        'run is resumed once. Read the run to follow it; do not retry the decisions.',
    );
    this.runId = runId;
    this.status = status;
  }
}
