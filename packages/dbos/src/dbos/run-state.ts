import type { DBOSClient, WorkflowStatus } from '@dbos-inc/dbos-sdk';
import type { PendingCall } from '@toolcircuit/core';
import type { DurableRunOutcome } from '../engine/durable-run.js';
import { DbosRunStateError } from '../errors/dbos-run-state-error.js';
import { resumeSegmentId } from './segment-id.js';

/**
 * - `queued`, `running`: a segment waits on the queue or runs on a worker.
 * - `paused`: calls await the human's decisions (`pending`); nothing runs, nothing is held.
 * - `completed`, `max_turns`, `stopped`, `aborted`: the loop finished (see `outcome`; `stopped`: a stop
 *   condition ended it, named by `outcome.result.stoppedBy`).
 * - `failed`: the segment threw (`error`); `cancelled`: it was cancelled or timed out.
 */
export type DbosRunStatus =
  | 'queued'
  | 'running'
  | 'paused'
  | 'completed'
  | 'max_turns'
  | 'stopped'
  | 'aborted'
  | 'failed'
  | 'cancelled';

export interface DbosRunState {
  readonly runId: string;
  readonly status: DbosRunStatus;
  /** The workflow id of the run's latest segment. */
  readonly segment: string;
  /** The latest finished segment's outcome. */
  readonly outcome?: DurableRunOutcome;
  readonly pending?: readonly PendingCall[];
  /** Calls answered "outcome unknown" over all the run's segments. */
  readonly unknownOutcomes: readonly string[];
  readonly error?: string;
}

/**
 * Where a run stands, following its segments from the first: each finished segment that paused points to
 * the id its continuation gets once approved; the first missing one means the run waits for decisions.
 */
export async function followRunState(client: DBOSClient, runId: string): Promise<DbosRunState> {
  let segment = runId;
  const unknownOutcomes: string[] = [];
  let outcome: DurableRunOutcome | undefined;
  for (;;) {
    const status = await client.getWorkflow(segment);
    if (status === undefined) {
      if (outcome === undefined) throw new DbosRunStateError(runId, 'missing', 'has no workflow: check the id.');
      // The run paused and no decision came yet.
      return {
        runId,
        status: 'paused',
        segment: outcome.segment,
        outcome,
        pending: outcome.result.paused?.pending ?? [],
        unknownOutcomes,
      };
    }
    const running = runningStatus(status);
    if (running !== undefined) {
      return {
        runId,
        status: running,
        segment,
        ...(outcome === undefined ? {} : { outcome }),
        unknownOutcomes,
        ...(running === 'failed' || running === 'cancelled' ? { error: describe(status.error) } : {}),
      };
    }
    outcome = status.output as DurableRunOutcome;
    unknownOutcomes.push(...outcome.unknownOutcomes);
    const paused = outcome.result.paused;
    if (outcome.status !== 'paused' || paused === undefined) {
      return { runId, status: outcome.status, segment, outcome, unknownOutcomes };
    }
    segment = resumeSegmentId(runId, paused.turn);
  }
}

function runningStatus(status: WorkflowStatus): DbosRunStatus | undefined {
  switch (status.status) {
    case 'SUCCESS':
      return undefined;
    case 'ENQUEUED':
    case 'DELAYED':
      return 'queued';
    case 'PENDING':
      return 'running';
    case 'CANCELLED':
      return 'cancelled';
    default:
      return 'failed';
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return typeof error === 'string' ? error : JSON.stringify(error ?? 'unknown error');
}
