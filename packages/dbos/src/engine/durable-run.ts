import {
  type ConfirmationDecision,
  checkResume,
  type DataFlowOptions,
  InvalidResumeError,
  type Journal,
  type LoopOptions,
  type LoopResult,
  type LoopStatus,
  type Message,
  oneModel,
  type PausedRun,
  type ResumeTokenStore,
  resumeLoop,
  runLoop,
  type Session,
} from '@toolcircuit/core';
import type { DurableSteps } from './durable-steps.js';
import { type SessionData, sessionOf } from './session-data.js';
import { stepModel } from './step-model.js';
import { stepTools } from './step-tools.js';

/** What starts a run, or continues it once the human decided on its paused calls. Plain JSON data. */
export type DurableRunInput =
  | {
      readonly kind: 'start';
      readonly runId: string;
      readonly session: SessionData;
      readonly messages: readonly Message[];
    }
  | {
      readonly kind: 'resume';
      readonly runId: string;
      /** The turn whose calls were decided. */
      readonly turn: number;
      /** The durable run (segment) that paused, whose outcome holds the paused state. */
      readonly previousSegment: string;
      readonly decisions: readonly ConfirmationDecision[];
      /** The session of the human who decided (rights are checked again). */
      readonly session: SessionData;
    };

/** Where one durable segment of a run ended: finished, or paused for the human (then `result.paused`). */
export interface DurableRunOutcome {
  readonly runId: string;
  /** The engine's id of the segment that produced this outcome. */
  readonly segment: string;
  readonly status: LoopStatus;
  readonly result: LoopResult;
  /** Calls of this segment answered "outcome unknown": started by a worker that stopped, never run again. */
  readonly unknownOutcomes: readonly string[];
}

/** What the circuit needs from an engine, beside its steps. */
export interface DurableEngine {
  readonly steps: DurableSteps;
  /** The id of the segment being run (a DBOS workflow id, a Temporal workflow id…). */
  readonly segment: string;
  /** The recorded outcome of an earlier segment (durably: a replay gets the same answer). */
  previousOutcome(segment: string): Promise<DurableRunOutcome>;
  /**
   * Waits for the human's decisions on a paused run, or returns `undefined` to end the segment there; the
   * run then costs nothing until an approval starts the next segment (DBOS). Engines whose waiting runs
   * are already free (Temporal signals, Restate awakeables) wait here instead.
   */
  awaitDecisions?(
    paused: PausedRun,
  ): Promise<{ decisions: readonly ConfirmationDecision[]; session: SessionData } | undefined>;
}

/**
 * Where a segment's resume spends the paused run's token: the engine consumed the pause already (one
 * segment per run and turn: DBOS keeps one workflow per id), and a replay of that segment after a crash
 * resumes the same pause again, which must not be refused.
 */
const CONSUMED_BY_ENGINE: ResumeTokenStore = { spendResumeToken: () => true };

/** The loop's settings for durable runs: everything but what each run brings. */
export interface DurableCircuit
  extends Omit<LoopOptions, 'session' | 'messages' | 'runId' | 'signal' | 'confirmation' | 'concurrency'> {
  /** Appended to inside steps, so a replayed run does not append the same entry twice. */
  readonly journal?: Journal;
  /** Builds the run's session from its data. Default: the rights as given, in-memory confirmations. */
  readonly session?: (data: SessionData) => Session;
  /** See `StepToolsOptions.rerunStartedReversibleCalls`. Default false. */
  readonly rerunStartedReversibleCalls?: boolean;
}

/**
 * One segment of a durable run, the same on every engine: the core loop (its four checks, journal,
 * provenance) with the model and each tool call as durable steps and confirmation mode `pause`. The calls
 * of a turn run one after another so that a replay meets the steps in the order the first execution did.
 */
export async function driveDurableRun(
  input: DurableRunInput,
  engine: DurableEngine,
  circuit: DurableCircuit,
): Promise<DurableRunOutcome> {
  const { journal, session: makeSession, rerunStartedReversibleCalls, ...loop } = circuit;
  const unknownOutcomes: string[] = [];
  const steps = engine.steps;
  const options = {
    ...loop,
    // A fallback list is one model here: a turn, fallen over or not, is one durable step.
    model: stepModel(oneModel(circuit.model, circuit.retry), steps),
    catalogue: stepTools(circuit.catalogue, steps, {
      rerunStartedReversibleCalls: rerunStartedReversibleCalls === true,
      onUnknownOutcome: (context) => unknownOutcomes.push(context.callId),
    }),
    confirmation: 'pause' as const,
    concurrency: 1,
    ...(journal === undefined ? {} : { journal: stepJournal(journal, steps) }),
    ...(loop.dataFlow === undefined ? {} : { dataFlow: stepReader(loop.dataFlow, steps) }),
  };
  const toSession = makeSession ?? sessionOf;

  let result: LoopResult;
  if (input.kind === 'start') {
    result = await runLoop({
      ...options,
      session: toSession(input.session),
      messages: input.messages,
      runId: input.runId,
    });
  } else {
    const previous = await engine.previousOutcome(input.previousSegment);
    const paused = pausedOf(previous, input);
    const session = toSession(input.session);
    checkResume(paused, input.decisions, session, options);
    result = await resumeLoop(paused, input.decisions, { ...options, session, resumeTokens: CONSUMED_BY_ENGINE });
  }
  while (result.status === 'paused' && engine.awaitDecisions !== undefined) {
    const paused = result.paused as PausedRun;
    const decided = await engine.awaitDecisions(paused);
    if (decided === undefined) break;
    const session = toSession(decided.session);
    checkResume(paused, decided.decisions, session, options);
    result = await resumeLoop(paused, decided.decisions, { ...options, session, resumeTokens: CONSUMED_BY_ENGINE });
  }
  return { runId: input.runId, segment: engine.segment, status: result.status, result, unknownOutcomes };
}

function pausedOf(previous: DurableRunOutcome, input: Extract<DurableRunInput, { kind: 'resume' }>): PausedRun {
  const paused = previous.result.paused;
  if (previous.status !== 'paused' || paused === undefined) {
    throw new InvalidResumeError(`segment "${input.previousSegment}" of run "${input.runId}" did not pause.`);
  }
  if (paused.runId !== input.runId || previous.runId !== input.runId) {
    throw new InvalidResumeError(
      `segment "${input.previousSegment}" belongs to run "${paused.runId}", not "${input.runId}".`,
    );
  }
  if (paused.turn !== input.turn) {
    throw new InvalidResumeError(
      `the decisions are for turn ${input.turn}, but run "${input.runId}" paused on turn ${paused.turn}.`,
    );
  }
  return paused;
}

/**
 * The quarantined reader's requests as durable steps too (an extraction is a model call the circuit makes
 * itself): a replayed run gets the values its first execution extracted, and does not ask the reader again.
 */
function stepReader(dataFlow: DataFlowOptions, steps: DurableSteps): DataFlowOptions {
  const { quarantine } = dataFlow;
  if (quarantine === undefined) return dataFlow;
  return { ...dataFlow, quarantine: { ...quarantine, reader: stepModel(quarantine.reader, steps) } };
}

function stepJournal(journal: Journal, steps: DurableSteps): Journal {
  return {
    append: async (entry, detail) => {
      await steps.run('journal', async () => {
        await journal.append(entry, detail);
        return null;
      });
    },
    // A note is a durable step too: a replayed turn does not write it twice.
    ...(journal.note === undefined
      ? {}
      : {
          note: async (note) => {
            await steps.run('journal', async () => {
              await journal.note?.(note);
              return null;
            });
          },
        }),
  };
}
