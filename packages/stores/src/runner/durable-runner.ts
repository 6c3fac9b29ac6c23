import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  type ConfirmationDecision,
  canonicalJson,
  checkResume,
  checkStateSeal,
  continueLoop,
  INTERRUPTED_RUN_SEAL,
  type InterruptedRun,
  InvalidResumeError,
  interruptedRunOfError,
  type Journal,
  type JsonValue,
  jsonDigest,
  type LoopHooks,
  type LoopOptions,
  type LoopResult,
  type LoopStreamEvent,
  type Message,
  PAUSED_RUN_SEAL,
  type PausedRun,
  type PendingCall,
  type ResumeTokenStore,
  resumeLoop,
  runLoop,
  type Session,
  sealState,
  type TaintSource,
  type ToolCallPart,
  type ToolResultPart,
  toolCallsOf,
  untrustedSourcesOf,
  type VouchedValue,
} from '@toolcircuit/core';
import { CatalogueChangedError } from '../errors/catalogue-changed-error.js';
import { RunAlreadyExistsError } from '../errors/run-already-exists-error.js';
import { RunNotFoundError } from '../errors/run-not-found-error.js';
import { RunNotResumableError } from '../errors/run-not-resumable-error.js';
import { isStoreError } from '../errors/store-error.js';
import { type CatalogueFingerprint, catalogueChanges, catalogueFingerprint } from '../store/catalogue-fingerprint.js';
import {
  type DurableStore,
  type HeldCallEntry,
  type RunClaim,
  type RunOutcome,
  type RunRecord,
  STARTED_TURN_SEAL,
  type StartedTurn,
} from '../store/durable-store.js';
import { storedAsDigested } from '../store/stored-state.js';
import { attemptFailure, claimHeld } from './attempt-close.js';
import { keepLease } from './lease-keeper.js';
import { type RecoverExpiredOptions, type RecoveredRun, recoverExpiredRuns } from './lease-sweep.js';
import { NO_USAGE, TurnMirror } from './turn-mirror.js';

interface HoldingJournal {
  readonly journal: Journal;
  /** The held-back entries, in the order the loop appended them. */
  readonly entries: HeldCallEntry[];
  /** Appends what is held on its own (when no pause is stored to carry it). */
  appendNow(): Promise<void>;
}

/**
 * The claims of attempts made in this process that failed and whose end the store could not record (it was
 * away): their runs are still `resuming` under them, and `recover` in this process takes them over without
 * waiting for the lease, since nothing runs under them any more. Known by token, never guessed from a worker
 * id another process might share.
 */
const unclosedAttempts = new Set<string>();

/**
 * A claim protects a resuming run from `recover` this long unless forced. Its worker renews it every third
 * of it while it runs, so this bounds how long a dead worker's runs wait, not how long a turn may take.
 */
export const DEFAULT_LEASE_MS = 60 * 1000;

/**
 * Where the runner's resumes spend a paused run's resume token: the run store already consumed the pause
 * (`claimRun` moved the run from `paused` to `resuming` once, by compare-and-set on its revision), and a
 * recovery goes on under that same decision, so core's own token store must not refuse it again.
 */
const CLAIMED_BY_RUN_STORE: ResumeTokenStore = { spendResumeToken: () => true };

export interface DurableRunnerOptions
  extends Omit<LoopOptions, 'session' | 'messages' | 'journal' | 'confirmation' | 'runId' | 'signal'> {
  readonly store: DurableStore;
  /** Names this process in claims and journal records. Default: host, pid and a random suffix. */
  readonly workerId?: string;
  /**
   * How long a claim keeps `recover` away from a resuming run after its worker last renewed it (every third
   * of it, while the run goes on). Default 1 minute.
   */
  readonly leaseMs?: number;
  /** The time source for claims and records (tests). */
  readonly clock?: () => Date;
}

/** What one call of the runner may add to the loop options it was created with. */
export interface PerCallOptions {
  readonly signal?: AbortSignal;
  /**
   * Told of this stretch's events as `streamLoop` yields them (text deltas included when the model streams,
   * each call's verdict and result, `loop-end` with the status it stopped on). A listener only: it changes
   * nothing that runs or is stored, and what it throws is ignored.
   */
  readonly onEvent?: (event: LoopStreamEvent) => void;
}

export interface StartInput extends PerCallOptions {
  /** Built by the application from its own authentication. */
  readonly session: Session;
  readonly messages: readonly Message[];
  /** Default: a new UUID. */
  readonly runId?: string;
}

export interface ResumeContext extends PerCallOptions {
  /** The session of the human who decided, from the application's authentication (rights are re-checked). */
  readonly session: Session;
}

export interface RecoverContext extends ResumeContext {
  /** Take over a run whose claim has not expired: only when you know its worker is gone. */
  readonly force?: boolean;
}

export interface DurableRunResult extends LoopResult {
  /**
   * Calls of the recovered turn that had started when their worker stopped, with no recorded result. They
   * were answered "outcome unknown" and not run again; someone must check whether they took effect.
   */
  readonly unknownOutcomes: readonly string[];
}

export interface DurableRunner {
  /**
   * Creates the run, claimed by this worker, then runs the loop with confirmation "pause": each turn is
   * stored with the start record of its first call, every call starts under a start record, and where the
   * loop ended (paused, finished, or interrupted) is stored at the end.
   */
  start(input: StartInput): Promise<DurableRunResult>;
  /**
   * Continues a paused run, in any process that shares the store. Every pending call needs a decision,
   * and every approval the `inputDigest` of the arguments the human was shown. Checks everything first
   * and throws, changing nothing, if the run is not paused (resumed already, being resumed, finished), a
   * decision is unknown, missing, duplicated or for other arguments, the session is not the one that
   * paused, or the catalogue changed. Then claims the run atomically: of two racing resumes one wins, the
   * other gets `RunClaimConflictError`.
   */
  resume(runId: string, decisions: readonly ConfirmationDecision[], context: ResumeContext): Promise<DurableRunResult>;
  /**
   * Continues a run whose worker failed (`interrupted`) or stopped (`resuming` past its lease, or `force`).
   * A run the model interrupted (a `ProviderError`, a cut stream: `start`, `resume` or `recover` threw it
   * and stored the loop's interrupted state) is continued from that state: the model is asked again for
   * the failed turn and no call already answered runs again, in this process or any other.
   * Any other run goes on from its last started turn (or its paused turn, resumed): calls with a recorded
   * result are not run again; calls that never started run now (an irreversible one never confirmed is
   * answered "not run, ask again" instead); calls that had started without a recorded result are never
   * re-run: they get an "outcome unknown" error result, an `outcome_unknown` journal record, the call state
   * `unknown`, and are listed in `unknownOutcomes`.
   */
  recover(runId: string, context: RecoverContext): Promise<DurableRunResult>;
  /**
   * Recovers the runs whose worker stopped renewing its lease (see `listExpiredClaims`), each with the
   * session `sessionFor` gives: of several workers doing this at once, each run is claimed by one. For a
   * sweep on a timer, see `startLeaseSweep`.
   */
  recoverExpired(options: RecoverExpiredOptions): Promise<RecoveredRun[]>;
  get(runId: string): Promise<RunRecord | undefined>;
}

/**
 * Durable runs over a {@link DurableStore}: a run is stored, claimed by its worker, before its first call;
 * paused runs survive the process; decisions are recorded with the claim that acts on them; each turn is
 * stored before its calls run, and every call leaves a "start" record, committed before the tool is
 * invoked, and a result, committed with its journal entry.
 *
 * What "exactly once" means here: a call is invoked at most once, whatever crashes or races happen; after
 * a crash it is invoked again only if its start was never recorded (so it cannot have run). A call that
 * started but whose result was lost is reported, never silently repeated, because the store cannot know
 * whether the side effect happened. A recovered run goes on from its last started turn: only the model may
 * be asked again for a turn whose calls had not started.
 */
export function createDurableRunner(options: DurableRunnerOptions): DurableRunner {
  return new Runner(options);
}

class Runner implements DurableRunner {
  readonly #store: DurableStore;
  readonly #loop: Omit<DurableRunnerOptions, 'store' | 'workerId' | 'leaseMs' | 'clock'>;
  readonly #fingerprint: CatalogueFingerprint;
  readonly #workerId: string;
  readonly #leaseMs: number;
  readonly #clock: () => Date;

  constructor(options: DurableRunnerOptions) {
    const { store, workerId, leaseMs, clock, ...loop } = options;
    this.#store = store;
    this.#loop = loop;
    this.#fingerprint = catalogueFingerprint(options.catalogue);
    this.#workerId = workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.#leaseMs = leaseMs ?? DEFAULT_LEASE_MS;
    this.#clock = clock ?? (() => new Date());
  }

  get(runId: string): Promise<RunRecord | undefined> {
    return this.#store.getRun(runId);
  }

  recoverExpired(options: RecoverExpiredOptions): Promise<RecoveredRun[]> {
    return recoverExpiredRuns(this.#store, this.#now(), (runId, context) => this.recover(runId, context), options);
  }

  async start(input: StartInput): Promise<DurableRunResult> {
    const runId = input.runId ?? randomUUID();
    if ((await this.#store.getRun(runId)) !== undefined) throw new RunAlreadyExistsError(runId);
    const claim = this.#newClaim();
    const base = { runId, turn: 0, messages: input.messages, turns: [], usage: NO_USAGE };
    // Created, claimed by this worker, before the model is asked anything: from here on every call starts
    // under a start record of a stored turn, and a crash leaves a run that `recover` can go on from.
    await this.#store.createClaimedRun({
      runId,
      sessionId: input.session.id,
      humanId: input.session.humanId,
      catalogue: this.#fingerprint,
      at: this.#now(),
      claim,
      // Sealed like every later state the runner stores: a recovery before the first turn checks it too.
      started: this.#sealed(STARTED_TURN_SEAL, { version: 1 as const, ...base }),
    });
    const mirror = new TurnMirror(base, 0, this.#sealKey);
    const held = this.#holdingJournal();
    return this.#settle(runId, claim, held, async () => {
      const result = await runLoop({
        ...this.#loop,
        session: input.session,
        messages: input.messages,
        runId,
        journal: held.journal,
        confirmation: 'pause',
        hooks: this.#durableHooks(runId, claim.token, mirror),
        ...perCall(input),
      });
      return { ...result, unknownOutcomes: [] };
    });
  }

  async resume(
    runId: string,
    decisions: readonly ConfirmationDecision[],
    context: ResumeContext,
  ): Promise<DurableRunResult> {
    const record = await this.#load(runId);
    if (record.status !== 'paused') throw new RunNotResumableError(runId, record.status, notPausedText(record));
    const paused = this.#checkedState(record);
    for (const decision of decisions) {
      if (decision.approved && decision.inputDigest === undefined) {
        throw new InvalidResumeError(
          `the approval of call "${decision.callId}" does not say which arguments the human was shown. Pass the ` +
            "pending call's inputDigest with every approval: a decision applies to the exact arguments it was shown.",
        );
      }
    }
    checkResume(paused, decisions, context.session, this.#loop);

    const byId = new Map(decisions.map((decision) => [decision.callId, decision]));
    const claim = this.#newClaim();
    const claimed = await this.#store.claimRun({
      runId,
      expectedRevision: record.revision,
      claim,
      turn: paused.turn,
      decisions: paused.pending.map((pending) => {
        // checkResume made sure there is exactly one decision per pending call.
        const decision = byId.get(pending.callId) as ConfirmationDecision;
        return {
          callId: pending.callId,
          index: pending.index,
          toolName: pending.toolName,
          inputDigest: pending.inputDigest,
          approved: decision.approved,
          ...(decision.note === undefined ? {} : { note: decision.note }),
        };
      }),
    });
    return this.#continue(claimed, paused, claim, context, vouchedOf(decisions));
  }

  async recover(runId: string, context: RecoverContext): Promise<DurableRunResult> {
    const record = await this.#load(runId);
    const reason = this.#recoveryReason(record, context.force === true);
    if (record.interrupted !== undefined) return this.#continueInterrupted(record, reason, context);
    if (record.started !== undefined) return this.#recoverStarted(record, reason, context);
    const paused = this.#checkedState(record);
    // The decisions recorded with the first claim, checked again against this session.
    const pendingIds = new Set(paused.pending.map((call) => call.callId));
    const recorded = record.calls.filter((call) => call.turn === paused.turn && pendingIds.has(call.callId));
    checkResume(
      paused,
      recorded.map((call) => ({ callId: call.callId, approved: call.approved, inputDigest: call.inputDigest })),
      context.session,
      this.#loop,
    );
    const { claim, claimed } = await this.#claimForRecovery(record, paused.turn, reason);
    return this.#continue(claimed, paused, claim, context);
  }

  /**
   * The loop's hooks for a claimed stretch: the application's, the `retry` records, the conversation
   * followed turn by turn, and a start marker committed before each call runs. The first start of a turn
   * stores the turn with it (one commit for the turn's calls that start together). Approved calls of the
   * resumed turn (`decided`) start their decided row; every other call gets a row of its own.
   */
  #durableHooks(
    runId: string,
    token: string,
    mirror: TurnMirror,
    decided?: { readonly turn: number; readonly toStart: Set<string> },
  ): LoopHooks {
    const appHooks = this.#loop.hooks;
    const onTurn = appHooks?.onTurn;
    const onResult = appHooks?.onResult;
    return {
      ...this.#journaledRetries(appHooks),
      // Synchronous unless the application's hook is not: the loop awaits only what returns a promise.
      onTurn: (event) => {
        if (event.runId === runId) mirror.onTurn(event);
        return onTurn?.(event);
      },
      onResult: (event) => {
        if (event.runId === runId) mirror.onResult(event);
        return onResult?.(event);
      },
      beforeToolRun: async (event) => {
        if (event.runId === runId) {
          const { call, turn } = event;
          // Committed before the tool is invoked; if it cannot be, the tool does not run.
          if (decided !== undefined && turn === decided.turn && decided.toStart.delete(call.id)) {
            await this.#store.markCallStarted({ runId, token, turn, callId: call.id, at: this.#now() });
          } else {
            const { index, started } = mirror.starting(turn, call.id);
            await this.#store.markCallStarted({
              runId,
              token,
              turn,
              callId: call.id,
              at: this.#now(),
              undecided: { index, toolName: call.name, inputDigest: event.inputDigest ?? jsonDigest(call.input) },
              ...(started === undefined ? {} : { started }),
            });
          }
        }
        await appHooks?.beforeToolRun?.(event);
      },
    };
  }

  /**
   * Goes on from the last turn whose calls started: results already recorded are reused, calls that had
   * started without one are answered "outcome unknown" (never run again), and calls that never started
   * run now, through the four checks, as they would have.
   */
  async #recoverStarted(record: RunRecord, reason: string, context: RecoverContext): Promise<DurableRunResult> {
    const started = this.#checkedStarted(record, context);
    const { claim, claimed } = await this.#claimForRecovery(record, started.turn, reason);
    const { runId } = claimed;
    const token = claim.token;
    const held = this.#holdingJournal();
    const loop = (mirror: TurnMirror) => ({
      ...this.#loop,
      session: context.session,
      journal: held.journal,
      confirmation: 'pause' as const,
      hooks: this.#durableHooks(runId, token, mirror),
      ...perCall(context),
    });
    return this.#settle(runId, claim, held, async () => {
      if (started.turn === 0) {
        // No turn had started: nothing ran, the run starts over from its input.
        const result = await runLoop({
          ...loop(new TurnMirror(started, 0, this.#sealKey)),
          messages: started.messages,
          runId,
        });
        return { ...result, unknownOutcomes: [] };
      }
      const { results, ran, pending, unknownOutcomes } = await this.#startedTurnWork(claimed, started, token);
      const provenance = this.#recoveredProvenance(started, ran);
      if (pending.length === 0) {
        // Every call of the turn is answered: the reply is complete and the model is asked for the next turn.
        const reply: Message = { role: 'tool', content: results as ToolResultPart[] };
        const messages = [...started.messages, reply];
        const interrupted: InterruptedRun = {
          version: 1,
          runId,
          turn: started.turn + 1,
          messages,
          turns: started.turns,
          usage: started.usage,
          answeredCallIds: [],
          ...provenance,
          error: { name: 'WorkerStopped', message: reason },
        };
        const mirror = new TurnMirror({ ...started, messages, ...provenance }, started.turn, this.#sealKey);
        const result = await continueLoop(this.#sealed(INTERRUPTED_RUN_SEAL, interrupted), loop(mirror));
        return { ...result, unknownOutcomes };
      }
      // The calls that never started run now: resumeLoop runs exactly the "pending" ones and completes the
      // reply. None of them needs a human (irreversible ones were answered in #startedTurnWork), so each is
      // "approved" only to be run; a gated call still needs an informed confirmation nobody granted, and
      // is refused with the reason, not run.
      const state: PausedRun = {
        version: 1,
        runId,
        sessionId: record.sessionId,
        humanId: record.humanId,
        turn: started.turn,
        messages: started.messages,
        turns: started.turns,
        usage: started.usage,
        pending,
        results,
        ...(started.step === undefined ? {} : { step: started.step }),
        ...provenance,
        resumeToken: randomUUID(),
      };
      const decisions = pending.map((call) => ({ callId: call.callId, approved: true, inputDigest: call.inputDigest }));
      const result = await resumeLoop(this.#sealed(PAUSED_RUN_SEAL, state), decisions, {
        ...loop(new TurnMirror({ ...started, ...provenance }, started.turn, this.#sealKey)),
        resumeTokens: CLAIMED_BY_RUN_STORE,
      });
      return { ...result, unknownOutcomes };
    });
  }

  /** The started turn as it stands after this claim: a result per answered call, the rest left to run. */
  async #startedTurnWork(
    claimed: RunRecord,
    started: StartedTurn,
    token: string,
  ): Promise<{
    results: (ToolResultPart | null)[];
    ran: ToolResultPart[];
    pending: PendingCall[];
    unknownOutcomes: string[];
  }> {
    const last = started.messages.at(-1);
    if (last?.role !== 'assistant' || typeof last.content === 'string') {
      throw new InvalidResumeError(`the started turn of run "${claimed.runId}" does not end with the model's calls.`);
    }
    const rows = new Map(claimed.calls.filter((call) => call.turn === started.turn).map((call) => [call.callId, call]));
    const results: (ToolResultPart | null)[] = [];
    const ran: ToolResultPart[] = [];
    const pending: PendingCall[] = [];
    const unknownOutcomes: string[] = [];
    for (const [index, call] of toolCallsOf(last.content).entries()) {
      const row = rows.get(call.id);
      if (row === undefined) {
        const neverRun = this.#neverStarted(claimed.runId, index, call);
        results.push('pending' in neverRun ? null : neverRun.result);
        if ('pending' in neverRun) pending.push(neverRun.pending);
        else await this.#journalNotRun(claimed, started, call);
        continue;
      }
      if (row.state === 'started') {
        const { result, unknown } = await this.#unknownOutcome(claimed.runId, token, started.turn, call);
        if (unknown) unknownOutcomes.push(call.id);
        else ran.push(result);
        results.push(result);
        continue;
      }
      if (row.result === undefined)
        throw new InvalidResumeError(`call "${call.id}" is ${row.state} but has no result.`);
      if (row.state === 'unknown') unknownOutcomes.push(call.id);
      else ran.push(row.result);
      results.push(row.result);
    }
    return { results, ran, pending, unknownOutcomes };
  }

  /**
   * A call of the started turn that never started: left to run, unless it needs a human. An irreversible
   * call is then answered "not run" rather than approved without one (the model may ask for it again, and
   * that call pauses for confirmation as usual).
   */
  #neverStarted(
    runId: string,
    index: number,
    call: ToolCallPart,
  ): { readonly pending: PendingCall } | { readonly result: ToolResultPart } {
    const entry = this.#loop.catalogue.get(call.name);
    let digest: string | undefined;
    try {
      digest = jsonDigest(call.input);
    } catch {
      digest = undefined;
    }
    if (entry?.definition.irreversible === true || digest === undefined) {
      return { result: notRunResult(runId, call) };
    }
    const input = JSON.parse(canonicalJson(call.input)) as JsonValue;
    return { pending: { index, callId: call.id, toolName: call.name, input, inputDigest: digest } };
  }

  /**
   * The provenance of a started turn recovered with the results its calls recorded: the sources stored
   * with the turn, and those the recorded results make (they count from this turn, as they did). A turn
   * stored without sources keeps none, so that core counts every result of the conversation as untrusted.
   */
  #recoveredProvenance(
    started: StartedTurn,
    ran: readonly ToolResultPart[],
  ): { provenance?: { readonly sources: readonly TaintSource[] } } {
    const stored = started.provenance?.sources;
    if (stored === undefined) return {};
    const recorded = untrustedSourcesOf(this.#loop.catalogue, this.#loop.provenance, started.turn, ran);
    // Stored without their texts: core makes each again from its result in the conversation.
    const sources = stored.map((source): TaintSource => ({ ...source, text: '' }));
    return { provenance: { sources: [...sources, ...recorded] } };
  }

  /** The runner's own key for the states it stores and derives, when it seals. */
  get #sealKey() {
    return this.#loop.seal?.key;
  }

  /**
   * A state the runner derived from stored ones it checked (a recovered turn, a paused turn with some
   * results recorded), sealed like the loop's own so that core checks it as it checks any other.
   */
  #sealed<T extends object>(kind: string, state: T): T {
    const key = this.#sealKey;
    return key === undefined ? state : sealState(kind, state, key);
  }

  /**
   * Journals the answer to a call of the recovered turn that is not run without a human (it never started,
   * and needed a confirmation nobody was asked for): every call the model made has its journal entry.
   */
  async #journalNotRun(claimed: RunRecord, started: StartedTurn, call: ToolCallPart): Promise<void> {
    let input: JsonValue = null;
    let inputDigest: string | null = null;
    try {
      input = JSON.parse(canonicalJson(call.input)) as JsonValue;
      inputDigest = jsonDigest(call.input);
    } catch {
      // Not JSON: journaled without its input, as the executor journals unparsable arguments.
    }
    await this.#store.journal.append({
      at: this.#now(),
      runId: claimed.runId,
      sessionId: claimed.sessionId,
      humanId: claimed.humanId,
      turn: started.turn,
      callId: call.id,
      toolName: call.name,
      input,
      inputDigest,
      verdict: 'refused',
      reason: 'confirmation_required',
      detail:
        'its worker stopped before it started and nobody was asked to confirm it; the model was told to ask again',
      durationMs: 0,
      ...(started.step === undefined ? {} : { step: started.step }),
    });
  }

  /** A started call without a recorded result: "outcome unknown", unless its result landed meanwhile. */
  async #unknownOutcome(
    runId: string,
    token: string,
    turn: number,
    call: { readonly callId: string; readonly toolName: string } | ToolCallPart,
  ): Promise<{ result: ToolResultPart; unknown: boolean }> {
    const named = 'callId' in call ? call : { callId: call.id, toolName: call.name };
    const unknownResult = unknownOutcomeResult(runId, named);
    // The store returns the recorded result instead when the old worker's entry landed after our claim.
    const result = await this.#store.recordUnknownOutcome({
      runId,
      token,
      turn,
      callId: named.callId,
      at: this.#now(),
      result: unknownResult,
      detail: 'the worker stopped after the call started and before its result was recorded; not run again',
    });
    return { result, unknown: jsonDigest(result) === jsonDigest(unknownResult) };
  }

  /** Claims a run to recover it at `turn` (its stored turn), with a `recovery` record naming the reason. */
  async #claimForRecovery(
    record: RunRecord,
    turn: number,
    reason: string,
  ): Promise<{ claim: RunClaim; claimed: RunRecord }> {
    const claim = this.#newClaim();
    const claimed = await this.#store.claimRun({
      runId: record.runId,
      expectedRevision: record.revision,
      claim,
      turn,
      recovery: {
        reason,
        ...(record.claim === undefined ? {} : { previousWorkerId: record.claim.workerId }),
      },
    });
    if (record.claim !== undefined) unclosedAttempts.delete(record.claim.token);
    return { claim, claimed };
  }

  /** The application's hooks, plus a `retry` journal record (committed first) for each loop-level retry. */
  #journaledRetries(hooks: LoopHooks | undefined): LoopHooks {
    return {
      ...hooks,
      onRetry: async (event) => {
        const fields = event.error as Error & { code?: unknown };
        await this.#store.recordRetry({
          runId: event.runId,
          turn: event.turn,
          attempt: event.attempt,
          delayMs: event.delayMs,
          workerId: this.#workerId,
          at: this.#now(),
          error: {
            name: event.error.name,
            message: event.error.message.slice(0, 2000),
            ...(typeof fields.code === 'string' ? { code: fields.code } : {}),
          },
        });
        await hooks?.onRetry?.(event);
      },
    };
  }

  /** Asks the model again for the turn it failed, from the stored state; nothing already answered runs. */
  async #continueInterrupted(record: RunRecord, reason: string, context: ResumeContext): Promise<DurableRunResult> {
    const interrupted = this.#checkedInterrupted(record, context);
    const { claim, claimed } = await this.#claimForRecovery(record, interrupted.turn, reason);
    const held = this.#holdingJournal();
    // The stored state is the interrupted one: the first start of the turn asked again stores that turn.
    const mirror = new TurnMirror({ ...interrupted, turn: interrupted.turn - 1 }, -1, this.#sealKey);
    return this.#settle(claimed.runId, claim, held, async () => {
      const result = await continueLoop(interrupted, {
        ...this.#loop,
        session: context.session,
        journal: held.journal,
        confirmation: 'pause',
        hooks: this.#durableHooks(claimed.runId, claim.token, mirror),
        ...perCall(context),
      });
      return { ...result, unknownOutcomes: [] };
    });
  }

  /**
   * Stores where a claimed stretch of the loop ended: finished or paused again, or interrupted (with the
   * loop's state when the model failed) so that `recover` can pick it up.
   */
  async #settle(
    runId: string,
    claim: RunClaim,
    held: HoldingJournal,
    work: () => Promise<DurableRunResult>,
  ): Promise<DurableRunResult> {
    const { token } = claim;
    const stopRenewing = keepLease(this.#store, runId, claim, this.#leaseMs, this.#clock);
    try {
      const result = await work();
      await this.#store.finishRun({
        runId,
        token,
        at: this.#now(),
        outcome: outcomeOf(result),
        journal: held.entries,
      });
      return result;
    } catch (error) {
      // Whatever entries were held back are still what happened: appended now, on their own.
      await held.appendNow().catch(() => undefined);
      // Even after a ClaimLostError: interruptRun writes only while this token still holds the claim (a
      // worker whose claim was taken over writes nothing), and a holder that failed must not leave the run
      // stuck in `resuming` until its lease ends. Interrupted, `recover` continues it.
      // The store tries this again while it is away (within its `writeRetryMs`); if it still cannot, the run
      // stays `resuming` under this claim, and the error says how to recover it.
      const interrupted = interruptedRunOfError(error);
      const closeFailure = await this.#store
        .interruptRun({
          runId,
          token,
          at: this.#now(),
          error: describeError(error),
          ...(interrupted === undefined ? {} : { interrupted }),
        })
        .then(
          () => undefined,
          (failure: unknown) => failure,
        );
      if (isStoreError(closeFailure)) unclosedAttempts.add(token);
      throw attemptFailure(error, closeFailure, runId, claim);
    } finally {
      stopRenewing();
    }
  }

  /** Runs the claimed turn's remaining calls and the rest of the loop, then releases the claim. */
  async #continue(
    claimed: RunRecord,
    paused: PausedRun,
    claim: RunClaim,
    context: ResumeContext,
    vouched?: ReadonlyMap<string, readonly VouchedValue[]>,
  ): Promise<DurableRunResult> {
    const { runId } = claimed;
    const token = claim.token;
    const held = this.#holdingJournal();
    return this.#settle(runId, claim, held, async () => {
      const { state, decisions, unknownOutcomes } = await this.#remainingWork(claimed, paused, token, vouched);
      const toStart = new Set(decisions.filter((decision) => decision.approved).map((decision) => decision.callId));
      // resumeLoop grants the approvals in a store of their own, valid for the resumed turn only: one that is
      // not used (refused on its re-check) never confirms a later call, and none is left in a durable store.
      const session = context.session;
      const mirror = new TurnMirror(state, paused.turn, this.#sealKey);
      const hooks = this.#durableHooks(runId, token, mirror, { turn: paused.turn, toStart });
      const result = await resumeLoop(this.#sealed(PAUSED_RUN_SEAL, state), decisions, {
        ...this.#loop,
        resumeTokens: CLAIMED_BY_RUN_STORE,
        session,
        journal: held.journal,
        confirmation: 'pause',
        hooks,
        ...perCall(context),
      });
      return { ...result, unknownOutcomes };
    });
  }

  /**
   * The paused turn as it stands after this claim: results already recorded are reused, started calls
   * without a result become "outcome unknown", and only calls that never started are left to run.
   */
  async #remainingWork(
    claimed: RunRecord,
    paused: PausedRun,
    token: string,
    vouched?: ReadonlyMap<string, readonly VouchedValue[]>,
  ): Promise<{ state: PausedRun; decisions: ConfirmationDecision[]; unknownOutcomes: string[] }> {
    const calls = new Map(claimed.calls.filter((call) => call.turn === paused.turn).map((call) => [call.callId, call]));
    const results = [...paused.results];
    const ran: ToolResultPart[] = [];
    const pending: PendingCall[] = [];
    const decisions: ConfirmationDecision[] = [];
    const unknownOutcomes: string[] = [];
    for (const call of paused.pending) {
      const decided = calls.get(call.callId);
      if (decided === undefined || decided.inputDigest !== call.inputDigest) {
        throw new InvalidResumeError(
          `the decision recorded for call "${call.callId}" is missing or for other arguments.`,
        );
      }
      if (decided.state === 'intended') {
        pending.push(call);
        const typed = decided.approved ? vouched?.get(call.callId) : undefined;
        decisions.push({
          callId: call.callId,
          approved: decided.approved,
          inputDigest: decided.inputDigest,
          ...(decided.note === undefined ? {} : { note: decided.note }),
          ...(typed === undefined ? {} : { vouched: typed }),
        });
        continue;
      }
      let result = decided.result;
      let unknown = decided.state === 'unknown';
      if (decided.state === 'started') {
        ({ result, unknown } = await this.#unknownOutcome(claimed.runId, token, paused.turn, call));
      }
      if (result === undefined)
        throw new InvalidResumeError(`call "${call.callId}" is ${decided.state} but has no result.`);
      if (unknown) unknownOutcomes.push(call.callId);
      // An approved call that ran before the crash: its output counts from this turn, as it did.
      else if (decided.approved) ran.push(result);
      results[call.index] = result;
    }
    const sources = paused.provenance?.sources;
    const provenance =
      sources === undefined || ran.length === 0
        ? {}
        : {
            provenance: {
              sources: [
                ...sources,
                ...untrustedSourcesOf(this.#loop.catalogue, this.#loop.provenance, paused.turn, ran),
              ],
            },
          };
    return { state: { ...paused, pending, results, ...provenance }, decisions, unknownOutcomes };
  }

  /**
   * The loop's journal: the store's, except that the entries of calls that wait for the human (verdict
   * `awaiting_confirmation`: they did not run) are held back and appended with the pause they lead to, in
   * the same transaction. One commit fewer per paused turn, and the pause and its entries become durable
   * together; an entry of a call that ran, or was refused, is committed before the loop goes on, as always.
   */
  #holdingJournal(): HoldingJournal {
    const entries: HeldCallEntry[] = [];
    const journal = this.#store.journal;
    return {
      entries,
      journal: {
        append: (entry, detail) => {
          if (entry.verdict !== 'awaiting_confirmation') return journal.append(entry, detail);
          entries.push({ entry, ...(detail === undefined ? {} : { detail }) });
        },
        note: (note) => journal.note?.(note),
      },
      appendNow: async () => {
        for (const held of entries.splice(0)) await journal.append(held.entry, held.detail);
      },
    };
  }

  async #load(runId: string): Promise<RunRecord> {
    const record = await this.#store.getRun(runId);
    if (record === undefined) throw new RunNotFoundError(runId);
    return record;
  }

  /** The stored paused state, if it is still what was written and the catalogue is still the same. */
  #checkedState(record: RunRecord): PausedRun {
    const { paused } = record;
    // A state the store parsed from text matching its digest is checked already; any other is serialised again.
    if (
      paused === undefined ||
      record.pausedDigest === undefined ||
      (!storedAsDigested(paused) && jsonDigest(paused) !== record.pausedDigest)
    ) {
      throw new InvalidResumeError(
        `the paused state of run "${record.runId}" does not match the digest it was stored with: it was altered in ` +
          'the store. Inspect the run and the journal; nothing was run.',
      );
    }
    if (paused.runId !== record.runId) {
      throw new InvalidResumeError(`the paused state stored under run "${record.runId}" belongs to "${paused.runId}".`);
    }
    const changes = catalogueChanges(record.catalogue, this.#fingerprint);
    if (changes.length > 0) throw new CatalogueChangedError(record.runId, changes);
    return paused;
  }

  /** The stored interrupted state, if it is still what was written (and sealed), for this session and catalogue. */
  #checkedInterrupted(record: RunRecord, context: ResumeContext): InterruptedRun {
    const interrupted = this.#checkedWrapped(record, context, 'interrupted', record.interrupted, 'interrupted state');
    checkStateSeal(INTERRUPTED_RUN_SEAL, interrupted, this.#loop.seal, `interrupted state of run "${record.runId}"`);
    return interrupted;
  }

  /** The stored started turn, if it is still what was written (and sealed), for this session and catalogue. */
  #checkedStarted(record: RunRecord, context: ResumeContext): StartedTurn {
    const started = this.#checkedWrapped(record, context, 'started', record.started, 'started turn');
    checkStateSeal(STARTED_TURN_SEAL, started, this.#loop.seal, `started turn of run "${record.runId}"`);
    if (started.version !== 1) {
      throw new InvalidResumeError(`unknown started-turn version ${String(started.version)} in run "${record.runId}".`);
    }
    return started;
  }

  /**
   * A state the store keeps as `{ [key]: state }`: it must hash to the stored digest (unless the store
   * checked its text already), belong to this run, session and human, and the catalogue must be the same.
   */
  #checkedWrapped<T extends { readonly runId: string }>(
    record: RunRecord,
    context: ResumeContext,
    key: 'interrupted' | 'started',
    state: T | undefined,
    label: string,
  ): T {
    if (
      state === undefined ||
      record.pausedDigest === undefined ||
      (!storedAsDigested(state) && record.pausedDigest !== jsonDigest({ [key]: state }))
    ) {
      throw new InvalidResumeError(
        `the ${label} of run "${record.runId}" does not match the digest it was stored with: it was ` +
          'altered in the store. Inspect the run and the journal; nothing was run.',
      );
    }
    if (state.runId !== record.runId) {
      throw new InvalidResumeError(`the ${label} stored under run "${record.runId}" belongs to "${state.runId}".`);
    }
    if (context.session.id !== record.sessionId || context.session.humanId !== record.humanId) {
      throw new InvalidResumeError(
        `run "${record.runId}" belongs to another session or human. Continue it with the session that started it.`,
      );
    }
    const changes = catalogueChanges(record.catalogue, this.#fingerprint);
    if (changes.length > 0) throw new CatalogueChangedError(record.runId, changes);
    return state;
  }

  #recoveryReason(record: RunRecord, force: boolean): string {
    const { runId, status, claim } = record;
    if (status === 'paused') {
      throw new RunNotResumableError(
        runId,
        status,
        "is paused, not interrupted: resume it with the human's decisions.",
      );
    }
    if (status === 'interrupted') return `the previous attempt failed: ${record.error ?? 'unknown error'}`;
    if (status !== 'resuming') {
      throw new RunNotResumableError(runId, status, 'has finished; there is nothing to recover.');
    }
    if (force) return 'forced by the operator';
    if (claim !== undefined && unclosedAttempts.has(claim.token)) {
      // An attempt of this process that is over, though the store could not record it: no one else holds it.
      return `the previous attempt of worker "${claim.workerId}" ended without being recorded (the store was unavailable)`;
    }
    if (claim !== undefined && claim.leaseExpiresAt > this.#now()) {
      throw claimHeld(this.#store.location ?? 'the run store', runId, claim);
    }
    return `the lease of worker "${claim?.workerId ?? '?'}" expired`;
  }

  #newClaim(): RunClaim {
    const now = this.#clock();
    return {
      token: randomUUID(),
      workerId: this.#workerId,
      claimedAt: now.toISOString(),
      leaseExpiresAt: new Date(now.getTime() + this.#leaseMs).toISOString(),
    };
  }

  #now(): string {
    return this.#clock().toISOString();
  }
}

/** The signal and listener of one call, when given. */
function perCall({ signal, onEvent }: PerCallOptions): PerCallOptions {
  return { ...(signal === undefined ? {} : { signal }), ...(onEvent === undefined ? {} : { onEvent }) };
}

function outcomeOf(result: LoopResult): RunOutcome {
  if (result.status === 'paused') {
    if (result.paused === undefined) throw new InvalidResumeError('the loop paused without a paused state.');
    return { status: 'paused', paused: result.paused };
  }
  // A run a stop condition ended is finished for the store (it cannot be resumed); the result keeps `stopped`.
  return { status: result.status === 'stopped' ? 'completed' : result.status, result };
}

function notPausedText(record: RunRecord): string {
  switch (record.status) {
    case 'resuming':
      return (
        `is being resumed already${record.claim === undefined ? '' : ` by worker "${record.claim.workerId}" since ${record.claim.claimedAt}`}, ` +
        'so it is not resumed again.'
      );
    case 'interrupted':
      return (
        'was resumed, but that attempt failed before it finished. Call recover() to continue it; resuming it again ' +
        'could run an approved call twice.'
      );
    default:
      return 'was resumed already and has finished: a paused run is resumed once.';
  }
}

function unknownOutcomeResult(
  runId: string,
  call: { readonly callId: string; readonly toolName: string },
): ToolResultPart {
  return {
    type: 'tool_result',
    callId: call.callId,
    name: call.toolName,
    isError: true,
    content:
      `The outcome of this call to "${call.toolName}" is unknown: the worker running it stopped after it started and ` +
      'before its result was recorded, so it may or may not have taken effect. It was not run again, so that it ' +
      `cannot happen twice. Do not call it again; tell the user it must be checked (run ${runId}, call ${call.callId}).`,
  };
}

function notRunResult(runId: string, call: ToolCallPart): ToolResultPart {
  return {
    type: 'tool_result',
    callId: call.id,
    name: call.name,
    isError: true,
    content:
      `This call to "${call.name}" was not run: the worker running this turn stopped before it started, and it ` +
      "needs the user's confirmation, which was never asked. If it is still needed, call it again; the user will " +
      `be asked to confirm it (run ${runId}).`,
  };
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`.slice(0, 2000);
  return String(error).slice(0, 2000);
}

/**
 * The values the human vouched for, by call: handed to the resumed loop in this process. They are not kept
 * in the store's call rows: a run recovered before its vouched call started asks for them again (the call is
 * refused as untrusted, never run without them), and a vouched call that ran keeps them with its result.
 */
function vouchedOf(
  decisions: readonly ConfirmationDecision[],
): ReadonlyMap<string, readonly VouchedValue[]> | undefined {
  const typed = decisions.filter((decision) => decision.approved && decision.vouched !== undefined);
  if (typed.length === 0) return undefined;
  return new Map(typed.map((decision) => [decision.callId, decision.vouched as readonly VouchedValue[]]));
}
