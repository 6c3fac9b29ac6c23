import { ToolcircuitError } from '@toolcircuit/core';
import type { RunStatus } from '../store/durable-store.js';

/**
 * The run is not in a state that allows what was asked: resuming a run that is not paused (resumed
 * already, being resumed, finished), or recovering one that is paused or still held by a live worker.
 * Nothing was changed.
 */
export class RunNotResumableError extends ToolcircuitError {
  readonly kind = 'circuit' as const;
  readonly code = 'run_not_resumable' as const;
  readonly runId: string;
  readonly status: RunStatus;

  constructor(runId: string, status: RunStatus, problemAndFix: string) {
    super(`Run "${runId}" (status "${status}") ${problemAndFix} Nothing was changed.`);
    this.runId = runId;
    this.status = status;
  }
}
