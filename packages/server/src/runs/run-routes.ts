import { randomUUID } from 'node:crypto';
import type { ConfirmationDecision, LoopStreamEvent, Message, PausedRun, Session } from '@toolcircuit/core';
import type { DurableRunner, DurableRunResult, DurableStore, RunRecord } from '@toolcircuit/stores';
import type { RunEventLog } from '../events/run-event-log.js';
import type { RunEventWriter } from '../events/run-event-writer.js';
import { HttpProblem, jsonResponse } from '../http/http-problem.js';
import type { Route } from '../http/routes.js';
import { runErrorProblem } from '../http/run-error-problem.js';
import { asRunSession } from './as-run-session.js';
import { HumanRunIndex } from './human-run-index.js';
import { ownedRun } from './owned-run.js';
import { type DecisionInput, parseDecisions } from './parse-decisions.js';
import { invalid, parseStart } from './parse-start.js';
import { pendingOf, runView } from './run-view.js';

/** What a cancelled paused run's declined calls tell the model. */
const CANCEL_NOTE = 'The user cancelled the run.';

/** What a stretch of a run is played with: what aborts it, and the listener that logs its events. */
type Stretch<T> = (signal: AbortSignal, onEvent: (event: LoopStreamEvent) => void) => Promise<T>;

/** What a recovery is continued with: the run's session (its human's), built by the application. */
export interface RecoveryContext {
  readonly session: Session;
}

/** A stretch of a run this process is playing: what cancels it, and its end. */
interface Playing {
  readonly controller: AbortController;
  readonly done: Promise<unknown>;
}

/** The routes' work, once the request is known to be well formed and its caller authenticated. */
export class RunRoutes {
  readonly #runner: DurableRunner;
  readonly #store: DurableStore;
  readonly #journalTail: number;
  readonly #index: HumanRunIndex;
  readonly #playing = new Map<string, Set<Playing>>();
  readonly #events: RunEventLog;
  readonly #writer: RunEventWriter | undefined;

  constructor(
    runner: DurableRunner,
    store: DurableStore,
    journalTail: number,
    events: RunEventLog,
    writer: RunEventWriter | undefined,
  ) {
    this.#runner = runner;
    this.#events = events;
    this.#writer = writer;
    this.#store = store;
    this.#journalTail = journalTail;
    this.#index = new HumanRunIndex(store);
  }

  answer(
    route: Exclude<Route, { readonly name: 'events' | 'chat' }>,
    session: Session,
    body: unknown,
  ): Promise<Response> {
    switch (route.name) {
      case 'start':
        return this.#start(session, body);
      case 'read':
        return this.#read(route.runId, session);
      case 'approvals':
        return this.#approvals(session);
      case 'decide':
        return this.#decide(route.runId, session, body);
      case 'cancel':
        return this.#cancel(route.runId, session);
    }
  }

  async #start(session: Session, body: unknown): Promise<Response> {
    const { runId, done } = this.startRun(session, parseStart(body));
    await done;
    return this.#view(runId, 201);
  }

  /** Starts a run of the caller from `messages`; `listen` is told its events too. `done` settles when it stops. */
  startRun(
    session: Session,
    messages: readonly Message[],
    listen?: (event: LoopStreamEvent) => void,
  ): { readonly runId: string; readonly done: Promise<void> } {
    const runId = randomUUID();
    const done = this.#play(
      runId,
      (signal, onEvent) => this.#runner.start({ session, messages, runId, signal, onEvent }),
      listen,
    );
    return { runId, done };
  }

  async #read(runId: string, session: Session): Promise<Response> {
    await this.#own(runId, session);
    return this.#view(runId, 200);
  }

  async #approvals(session: Session): Promise<Response> {
    const { humanId } = session;
    const runIds = await this.#index.runsOf(humanId);
    const records = await Promise.all(runIds.map((runId) => this.#store.getRun(runId)));
    const approvals = records.flatMap((record) => {
      if (record === undefined || record.humanId !== humanId) return [];
      if (record.status !== 'paused') this.#index.forget(humanId, record.runId);
      return pendingOf(record);
    });
    approvals.sort((a, b) => a.pausedAt.localeCompare(b.pausedAt));
    return jsonResponse(200, { approvals });
  }

  async #decide(runId: string, session: Session, body: unknown): Promise<Response> {
    const { done } = await this.decideRun(runId, session, parseDecisions(body));
    await done;
    return this.#view(runId, 200);
  }

  /**
   * The caller's decisions on their paused run, checked against what is pending (404, 409 and 400 answers
   * are thrown before anything is claimed), then the resumed stretch; `listen` is told its events too.
   * `done` settles when the run stops again. `pending` names the calls decided.
   */
  async decideRun(
    runId: string,
    session: Session,
    decisions: readonly DecisionInput[],
    listen?: (event: LoopStreamEvent) => void,
  ): Promise<{ readonly pending: readonly string[]; readonly done: Promise<void> }> {
    const record = await this.#own(runId, session);
    const paused = pausedOf(record);
    const checked = checkDecisions(paused, decisions);
    const done = this.#play(
      runId,
      (signal, onEvent) =>
        this.#runner.resume(runId, checked, { session: asRunSession(session, record), signal, onEvent }),
      listen,
    );
    return { pending: paused.pending.map((call) => call.callId), done };
  }

  async #cancel(runId: string, session: Session): Promise<Response> {
    const record = await this.#own(runId, session);
    const playing = [...(this.#playing.get(runId) ?? [])];
    if (playing.length > 0) {
      for (const stretch of playing) stretch.controller.abort();
      await Promise.all(playing.map((stretch) => stretch.done.catch(() => undefined)));
      return this.#view(runId, 200);
    }
    if (record.status !== 'paused') {
      throw new HttpProblem(
        409,
        'run_not_cancellable',
        record.status === 'resuming'
          ? 'the run is being played by another worker of this store; cancel it there.'
          : `the run is ${record.status}: only a paused run, or one this server is playing, can be cancelled.`,
      );
    }
    // Every pending call declined, journaled with this human, and the resumed loop stops before asking the
    // model again: the run ends `aborted`, through the same atomic claim as any decision.
    const paused = pausedOf(record);
    const declined = paused.pending.map((call) => ({ callId: call.callId, approved: false, note: CANCEL_NOTE }));
    await this.#play(runId, (_signal, onEvent) =>
      this.#runner.resume(runId, declined, {
        session: asRunSession(session, record),
        signal: AbortSignal.abort(),
        onEvent,
      }),
    );
    return this.#view(runId, 200);
  }

  #own(runId: string, session: Session): Promise<RunRecord> {
    return ownedRun(this.#store, runId, session);
  }

  /**
   * Continues a run a dead process left mid-turn (see `recovery`), tracked and logged like any stretch
   * played here (a cancel aborts it, `GET /runs/:id/events` follows it). The runner's errors are thrown
   * as they are, so that a sweep tells a run another worker claimed first from a failure.
   */
  recover(runId: string, context: RecoveryContext): Promise<DurableRunResult> {
    return this.#track(runId, (signal, onEvent) => this.#runner.recover(runId, { ...context, signal, onEvent }));
  }

  /**
   * Plays a stretch of a run (start or resume) to where it stops. The runner's refusals become answers; a
   * model failure after the claim leaves the run `interrupted` (stored with its error) and is answered
   * with the run, which says so.
   */
  async #play(runId: string, stretch: Stretch<unknown>, listen?: (event: LoopStreamEvent) => void): Promise<void> {
    try {
      await this.#track(runId, stretch, listen);
    } catch (error) {
      const problem = runErrorProblem(error);
      if (problem !== undefined) throw problem;
      const record = await this.#store.getRun(runId);
      if (record?.status !== 'interrupted') throw error;
    }
  }

  /** Plays a stretch, cancellable and with its events logged until it ends, whichever way it ends. */
  async #track<T>(runId: string, stretch: Stretch<T>, listen?: (event: LoopStreamEvent) => void): Promise<T> {
    const writer = this.#writer;
    if (writer !== undefined) await this.#numberAboveStored(runId);
    const controller = new AbortController();
    const log = this.#events.begin(runId, writer === undefined ? undefined : (event) => writer.add(runId, event));
    const onEvent =
      listen === undefined
        ? log
        : (event: LoopStreamEvent): void => {
            log(event);
            listen(event);
          };
    const done = stretch(controller.signal, onEvent);
    // Two stretches may race for one run (two identical decisions): both are tracked until each ends, so
    // the loser's end never hides the winner from a cancel, whichever of them started first.
    const playing: Playing = { controller, done };
    const stretches = this.#playing.get(runId) ?? new Set<Playing>();
    stretches.add(playing);
    this.#playing.set(runId, stretches);
    try {
      return await done;
    } finally {
      stretches.delete(playing);
      if (stretches.size === 0 && this.#playing.get(runId) === stretches) this.#playing.delete(runId);
      // Stored before the answer goes out: a reader of another process then reads the whole stretch.
      await writer?.settle(runId);
      this.#events.end(runId);
    }
  }

  /**
   * When this process logged the run before and the store holds events above its last one (another
   * process played the run since), the next events are numbered above those.
   */
  async #numberAboveStored(runId: string): Promise<void> {
    const last = this.#events.lastSeq(runId);
    if (last === undefined || this.#store.readRunEvents === undefined) return;
    const [above] = await this.#store.readRunEvents({ runId, afterSeq: last, limit: 1 });
    if (above !== undefined) this.#events.numberAbove(runId, above.seq);
  }

  async #view(runId: string, status: number): Promise<Response> {
    const record = await this.#store.getRun(runId);
    if (record === undefined) throw new HttpProblem(404, 'run_not_found', 'there is no such run.');
    const journal = this.#journalTail === 0 ? [] : (await this.#store.readJournal({ runId })).slice(-this.#journalTail);
    return jsonResponse(status, { run: runView(record, journal) });
  }
}

function pausedOf(record: RunRecord): PausedRun {
  if (record.status !== 'paused' || record.paused === undefined) {
    throw new HttpProblem(
      409,
      'run_not_paused',
      `the run is ${record.status}: it has no calls waiting for a decision.`,
    );
  }
  return record.paused;
}

/**
 * The decisions, checked against what the human was shown before anything is claimed: each for a pending
 * call, for its exact arguments, and (for an approval of a call made after untrusted output arrived) for
 * the untrusted sources the request showed. The runner checks the arguments again, atomically with its claim.
 */
function checkDecisions(paused: PausedRun, decisions: readonly DecisionInput[]): ConfirmationDecision[] {
  const pending = new Map(paused.pending.map((call) => [call.callId, call]));
  for (const decision of decisions) {
    const call = pending.get(decision.callId);
    if (call === undefined) {
      throw new HttpProblem(
        409,
        'call_not_pending',
        `call "${decision.callId}" is not waiting for a decision in this run.`,
      );
    }
    if (decision.inputDigest !== undefined && decision.inputDigest !== call.inputDigest) {
      throw new HttpProblem(
        409,
        'input_digest_mismatch',
        `the decision on call "${call.callId}" is for other arguments than the pending ones: show the human the pending arguments and ask again.`,
      );
    }
    const taint = call.request?.taintDigest;
    if (decision.approved && taint !== undefined && decision.taintDigest !== taint) {
      throw new HttpProblem(
        409,
        'taint_digest_mismatch',
        `the approval of call "${call.callId}" was not given on the untrusted sources the run holds now` +
          `${decision.taintDigest === undefined ? ' (it names none)' : ''}: show the human the current request and ask again.`,
      );
    }
  }
  const undecided = paused.pending.filter((call) => !decisions.some((decision) => decision.callId === call.callId));
  if (undecided.length > 0) {
    throw invalid(
      `decide every pending call of the run together; missing: ${undecided.map((call) => call.callId).join(', ')}.`,
    );
  }
  return decisions.map(({ callId, approved, inputDigest, note }) => ({
    callId,
    approved,
    ...(inputDigest === undefined ? {} : { inputDigest }),
    ...(note === undefined ? {} : { note }),
  }));
}
