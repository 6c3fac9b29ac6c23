import type { DBOSClient, WorkflowStatus } from '@dbos-inc/dbos-sdk';
import {
  type ConfirmationDecision,
  checkResume,
  InvalidResumeError,
  type JsonValue,
  jsonDigest,
  type Message,
  type PendingCall,
  type Session,
} from '@toolcircuit/core';
import type { DurableRunInput, DurableRunOutcome } from '../engine/durable-run.js';
import { type SessionData, sessionData, sessionOf } from '../engine/session-data.js';
import { DbosRunStateError } from '../errors/dbos-run-state-error.js';
import { DEFAULT_QUEUE_NAME, DEFAULT_WORKFLOW_NAME } from './register-dbos-circuit.js';
import { resumeSegmentId } from './segment-id.js';

export interface DbosRunsOptions {
  /** A client on the pool's system database (`DBOSClient.create({ systemDatabaseUrl })`); yours to destroy. */
  readonly client: DBOSClient;
  readonly workflowName?: string;
  readonly queueName?: string;
  /** DBOS workflow timeout of each segment, counted from when a worker dequeues it. Default: none. */
  readonly segmentTimeoutMs?: number;
}

export interface StartRunInput {
  /** Built by the application from its own authentication. */
  readonly session: Session | SessionData;
  readonly messages: readonly Message[];
  /** Default: a new UUID. Starting the same id twice starts one run. */
  readonly runId?: string;
  /** Overrides `segmentTimeoutMs` for this run's first segment. */
  readonly timeoutMs?: number;
  /** DBOS queue priority: lower runs first. Default 0. */
  readonly priority?: number;
}

/**
 * - `queued`, `running`: a segment waits on the queue or runs on a worker.
 * - `paused`: calls await the human's decisions (`pending`); nothing runs, nothing is held.
 * - `completed`, `max_turns`, `aborted`: the loop finished (see `outcome`).
 * - `failed`: the segment threw (`error`); `cancelled`: it was cancelled or timed out.
 */
export type DbosRunStatus =
  | 'queued'
  | 'running'
  | 'paused'
  | 'completed'
  | 'max_turns'
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

export interface DbosRuns {
  /** Enqueues a run; any worker of the pool picks it up. Returns its id. */
  start(input: StartRunInput): Promise<string>;
  /** Where the run stands, following its segments. */
  state(runId: string): Promise<DbosRunState>;
  /**
   * Gives the human's decisions to a paused run: every pending call needs one, and every approval the
   * `inputDigest` it was shown. Checks them as a resume does, then enqueues the run's next segment under an
   * id fixed by the run and turn, so a turn's decisions are used once: a second approval of the same turn
   * (here or in another process) throws `DbosRunStateError`, and is not used.
   */
  approve(
    runId: string,
    decisions: readonly ConfirmationDecision[],
    session: Session | SessionData,
    options?: { readonly timeoutMs?: number },
  ): Promise<void>;
  /** Cancels the run's queued or running segment (DBOS cancellation: it stops at its next step). */
  cancel(runId: string): Promise<void>;
  /** Polls until the run is neither queued nor running. */
  settled(
    runId: string,
    options?: { readonly intervalMs?: number; readonly timeoutMs?: number },
  ): Promise<DbosRunState>;
}

/** Starts, follows, approves and cancels durable runs from any process that reaches the system database. */
export function createDbosRuns(options: DbosRunsOptions): DbosRuns {
  const { client } = options;
  const workflowName = options.workflowName ?? DEFAULT_WORKFLOW_NAME;
  const queueName = options.queueName ?? DEFAULT_QUEUE_NAME;

  const enqueue = async (
    workflowID: string,
    input: DurableRunInput,
    timeoutMs: number | undefined,
    priority?: number,
  ) => {
    const timeout = timeoutMs ?? options.segmentTimeoutMs;
    await client.enqueue(
      {
        workflowName,
        queueName,
        workflowID,
        ...(timeout === undefined ? {} : { workflowTimeoutMS: timeout }),
        ...(priority === undefined ? {} : { priority }),
      },
      input,
    );
  };

  const state = async (runId: string): Promise<DbosRunState> => {
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
  };

  return {
    async start(input) {
      const runId = input.runId ?? crypto.randomUUID();
      const start: DurableRunInput = { kind: 'start', runId, session: toData(input.session), messages: input.messages };
      await enqueue(runId, start, input.timeoutMs, input.priority);
      return runId;
    },

    state,

    async approve(runId, decisions, session, approveOptions = {}) {
      const current = await state(runId);
      const paused = current.outcome?.result.paused;
      if (current.status !== 'paused' || paused === undefined || current.outcome === undefined) {
        throw new DbosRunStateError(runId, current.status, 'is not waiting for decisions.');
      }
      for (const decision of decisions) {
        if (decision.approved && decision.inputDigest === undefined) {
          throw new InvalidResumeError(
            `the approval of call "${decision.callId}" does not say which arguments the human was shown. Pass the ` +
              "pending call's inputDigest with every approval: a decision applies to the exact arguments it was shown.",
          );
        }
      }
      const data = toData(session);
      checkResume(paused, decisions, sessionOf(data));
      const segment = resumeSegmentId(runId, paused.turn);
      // As recorded (JSON), so that it compares with what the system database gives back.
      const input = JSON.parse(
        JSON.stringify({
          kind: 'resume',
          runId,
          turn: paused.turn,
          previousSegment: current.outcome.segment,
          decisions,
          session: data,
        } satisfies DurableRunInput),
      ) as DurableRunInput;
      await enqueue(segment, input, approveOptions.timeoutMs);
      // Another approval of this turn may have got there first: its segment runs, this one is not used.
      const recorded = await client.getWorkflow(segment);
      const recordedInput = recorded?.input?.[0];
      if (
        recordedInput === undefined ||
        jsonDigest(recordedInput as JsonValue) !== jsonDigest(input as unknown as JsonValue)
      ) {
        throw new DbosRunStateError(
          runId,
          'decided',
          `turn ${paused.turn} was decided already by another approval, which is the one used.`,
        );
      }
    },

    async cancel(runId) {
      const current = await state(runId);
      if (current.status === 'queued' || current.status === 'running') {
        await client.cancelWorkflow(current.segment);
        return;
      }
      throw new DbosRunStateError(runId, current.status, 'has no queued or running segment to cancel.');
    },

    async settled(runId, settleOptions = {}) {
      const interval = settleOptions.intervalMs ?? 250;
      const deadline = settleOptions.timeoutMs === undefined ? undefined : Date.now() + settleOptions.timeoutMs;
      for (;;) {
        const current = await state(runId);
        if (current.status !== 'queued' && current.status !== 'running') return current;
        if (deadline !== undefined && Date.now() > deadline) {
          throw new DbosRunStateError(runId, current.status, `did not settle within ${settleOptions.timeoutMs} ms.`);
        }
        await new Promise((resolve) => setTimeout(resolve, interval));
      }
    },
  };
}

function toData(session: Session | SessionData): SessionData {
  return Array.isArray(session.rights) ? (session as SessionData) : sessionData(session as Session);
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
