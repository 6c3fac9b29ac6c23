import type { DBOSClient } from '@dbos-inc/dbos-sdk';
import {
  type ConfirmationDecision,
  checkResume,
  InvalidResumeError,
  type JsonValue,
  jsonDigest,
  type Message,
  type PausedRun,
  type SealOptions,
  type Session,
} from '@toolcircuit/core';
import type { DurableRunInput } from '../engine/durable-run.js';
import { type SessionData, sessionData, sessionOf } from '../engine/session-data.js';
import { DbosRunStateError } from '../errors/dbos-run-state-error.js';
import { DEFAULT_QUEUE_NAME, DEFAULT_WORKFLOW_NAME } from './register-dbos-circuit.js';
import { type DbosRunState, followRunState } from './run-state.js';
import { resumeSegmentId } from './segment-id.js';

export interface DbosRunsOptions {
  /** A client on the pool's system database (`DBOSClient.create({ systemDatabaseUrl })`); yours to destroy. */
  readonly client: DBOSClient;
  readonly workflowName?: string;
  readonly queueName?: string;
  /** DBOS workflow timeout of each segment, counted from when a worker dequeues it. Default: none. */
  readonly segmentTimeoutMs?: number;
  /**
   * The workers' `seal` keys, so that `approve` checks a paused state's seal before it enqueues anything.
   * Without them the workers still check it (and refuse a state whose seal fails, running nothing).
   */
  readonly seal?: SealOptions;
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
  /**
   * Cancels the run: its queued or running segment through DBOS (a running one stops at its next step), or,
   * when it is paused, the place of its next segment, so that no approval can continue it. A finished run
   * throws `DbosRunStateError`.
   */
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
    delaySeconds?: number,
  ) => {
    const timeout = timeoutMs ?? options.segmentTimeoutMs;
    await client.enqueue(
      {
        workflowName,
        queueName,
        workflowID,
        ...(timeout === undefined ? {} : { workflowTimeoutMS: timeout }),
        ...(priority === undefined ? {} : { priority }),
        ...(delaySeconds === undefined ? {} : { delaySeconds }),
      },
      input,
    );
  };

  const state = (runId: string) => followRunState(client, runId);

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
      // Without the keys here, the seal is the worker's to check: the decisions are checked all the same.
      const checked = options.seal === undefined ? withoutSeal(paused) : paused;
      checkResume(checked, decisions, sessionOf(data), options);
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
      const paused = current.outcome?.result.paused;
      if (current.status === 'paused' && paused !== undefined && current.outcome !== undefined) {
        // Takes the next segment's id with a workflow that no worker may start (delayed a year, then
        // cancelled): an approval finds the run cancelled, and a forced resume of it fails its checks
        // (no decisions), running nothing.
        const segment = resumeSegmentId(runId, paused.turn);
        const placeholder: DurableRunInput = {
          kind: 'resume',
          runId,
          turn: paused.turn,
          previousSegment: current.outcome.segment,
          decisions: [],
          session: { id: paused.sessionId, humanId: paused.humanId, rights: [] },
        };
        await enqueue(segment, placeholder, undefined, undefined, 365 * 24 * 3600);
        await client.cancelWorkflow(segment);
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

function withoutSeal(paused: PausedRun): PausedRun {
  const { seal: _seal, ...content } = paused;
  return content;
}

function toData(session: Session | SessionData): SessionData {
  return Array.isArray(session.rights) ? (session as SessionData) : sessionData(session as Session);
}
