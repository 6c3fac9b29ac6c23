import { isAborted } from '../async/is-aborted.js';
import { startRunCostMeter } from '../cost/run-cost-meter.js';
import { startDataFlow } from '../data-flow/start-data-flow.js';
import { InvalidResumeError } from '../errors/invalid-resume-error.js';
import { executeCall, refuseCall } from '../execute/executor.js';
import { jsonDigest } from '../json/canonical-json.js';
import { type Message, type ToolCallPart, type ToolResultPart, toolCallsOf } from '../messages/messages.js';
import type { SealOptions } from '../seal/seal-options.js';
import { checkStateSeal } from '../seal/state-seal.js';
import { ResumeConfirmations } from '../session/resume-confirmations.js';
import type { ResumeTokenStore } from '../session/resume-tokens.js';
import { createSession, type Session } from '../session/session.js';
import { appendReply } from './append-reply.js';
import { callVerdictEventOf } from './call-events.js';
import type { CallTask } from './call-tasks.js';
import { checkLoopOptions } from './check-loop-options.js';
import { emitterOf, type LoopEventListener } from './event-listener.js';
import { executionContext, type StepScope } from './execution-context.js';
import { finishLoop } from './finish-loop.js';
import { type LoadedTools, loadedToolsOf } from './loaded-tools.js';
import type { LoopOptions } from './loop-options.js';
import type { LoopResult } from './loop-result.js';
import type { LoopState } from './loop-state.js';
import type { ConfirmationDecision, PausedRun, PendingCall } from './paused-run.js';
import { PAUSED_RUN_SEAL } from './paused-run-of.js';
import { offeredTools } from './plan-step.js';
import { restoredProvenance } from './restored-provenance.js';
import { driveLoop } from './run-loop.js';
import { settleCalls } from './settle-calls.js';
import { spendResumeToken } from './spend-resume-token.js';

export interface ResumeOptions extends Omit<LoopOptions, 'messages' | 'runId'>, LoopEventListener {
  /**
   * Where `resumeLoop` spends the paused run's resume token. Default: the session's confirmation store
   * (`ConfirmationStore.spendResumeToken`). A durable engine whose run store consumed the pause already (a
   * claim, a workflow id per turn) passes its own, so that its replays are not refused. `continueLoop`
   * ignores it.
   */
  readonly resumeTokens?: ResumeTokenStore;
}

/**
 * Continues a paused run with the human's decisions, one per pending call. An approved call is granted a
 * confirmation for its exact arguments and then goes through all four checks again (the session may have
 * changed since the pause); a declined call is answered with a refusal the model can act on. The turn's
 * reply is then completed in call order and the loop carries on, counting turns from where it paused.
 *
 * Throws {@link InvalidResumeError} when the decisions or the paused state do not line up: resuming on
 * doubtful data could run an irreversible call nobody confirmed; `StateSealError` when the state's seal
 * does not check out (see `LoopOptions.seal`); `PausedRunResumedError` when this paused run was resumed
 * already (its resume token is spent: a paused run is resumed once). Nothing runs in any of these cases.
 */
export async function resumeLoop(
  paused: PausedRun,
  decisions: readonly ConfirmationDecision[],
  options: ResumeOptions,
): Promise<LoopResult> {
  checkLoopOptions(options);
  checkStateSeal(PAUSED_RUN_SEAL, paused, options.seal, 'paused run');
  const calls = checkPausedRun(paused, options);
  const decisionFor = checkDecisions(paused.pending, decisions);
  await spendResumeToken(paused, options.session.confirmations, options.resumeTokens);

  // The approvals go to a store of their own, valid for this turn only: one that is not used (the signal
  // fired first, the session lost the right) is never left where a later call could use it.
  const confirmations = new ResumeConfirmations(options.session.confirmations);
  const session = createSession({
    id: options.session.id,
    humanId: options.session.humanId,
    rights: options.session.rights,
    confirmations,
  });
  // Approved calls are re-checked in "refuse" mode: if the confirmation somehow did not stick, the model is
  // told, instead of the run pausing on the same call forever.
  const provenance = restoredProvenance(options.catalogue, options.provenance, paused, {
    turn: paused.turn,
    results: paused.results.filter((result) => result !== null),
  });
  // The paused turn's answered calls are read too: a trusted tool, a quarantined read, a declaration among them.
  startDataFlow(provenance, options, paused.messages, paused);
  const loadedTools = loadedToolsOf(options.catalogue, paused.messages, paused.loadedTools);
  const context = executionContext(
    { ...options, session },
    paused.runId,
    paused.turn,
    'refuse',
    provenance,
    resumedScope(options, paused, loadedTools),
    loadedTools,
  );
  const tasks = paused.pending.map((pending): CallTask => {
    const call = calls[pending.index] as ToolCallPart;
    const decision = decisionFor.get(pending.callId) as ConfirmationDecision;
    const run = async () => {
      if (!decision.approved)
        return refuseCall(call, 'confirmation_denied', deniedText(call.name, decision.note), context);
      // The human decided on what the pause showed them: a gated call's confirmation names that taint.
      const informedOf = pending.request?.taintDigest;
      // What the human typed or chose is theirs: trusted from now on, and kept with this call's result.
      if (decision.vouched !== undefined) provenance?.dataFlow?.vouch(decision.vouched, paused.humanId, call.id);
      // The human of the paused run (the session was checked to be theirs), for this run only.
      confirmations.grant({
        toolName: pending.toolName,
        inputDigest: pending.inputDigest,
        ...(informedOf === undefined ? {} : { informedOf }),
        humanId: paused.humanId,
        runId: paused.runId,
      });
      return executeCall(call, context);
    };
    return { index: pending.index, call, run };
  });
  const decided = new Map<number, ToolResultPart>();
  // The resumed calls' verdicts and results, and the turn's reply, told as the paused turn would have.
  const emit = emitterOf(options.onEvent, false);
  const { runId, turn } = paused;
  try {
    await settleCalls(tasks, turn, runId, options, ({ event }) => {
      decided.set(event.index, event.result);
      if (emit === undefined) return;
      emit('type' in event ? event : callVerdictEventOf(event));
      emit({ type: 'tool-result', runId, turn, index: event.index, result: event.result });
    });
  } finally {
    confirmations.close();
  }

  const results: ToolResultPart[] = paused.results.map((result, index) => {
    if (result !== null) return result;
    return decided.get(index) as ToolResultPart;
  });
  const state: LoopState = {
    runId: paused.runId,
    messages: [...paused.messages],
    turns: [...paused.turns],
    usage: paused.usage,
    // The turns before the pause, priced again (not stored): each at its list mark, else the run's model.
    cost: startRunCostMeter(options.prices, paused.turns, options.model),
    ...(provenance === undefined ? {} : { provenance }),
    ...(loadedTools === undefined ? {} : { loadedTools }),
  };
  const message = await appendReply(
    state,
    paused.turn,
    results.map((result) => ({ result })),
    options,
  );
  emit?.({ type: 'reply', runId, turn, message });
  if (isAborted(options.signal)) {
    const result = finishLoop(state, 'aborted');
    emit?.({ type: 'loop-end', runId, result });
    return result;
  }
  return driveLoop(state, options);
}

/**
 * Runs every check `resumeLoop` makes before it does anything, without running anything: the paused state's
 * seal (with the `seal` options given), the state is consistent and belongs to this session, and the
 * decisions cover exactly the pending calls. A durable store calls it before it claims a run, so a resume
 * that would be refused changes nothing. (Whether the run was resumed already is not checked: spending its
 * token is the resume's first act.)
 *
 * Throws {@link InvalidResumeError}, or `StateSealError`.
 */
export function checkResume(
  paused: PausedRun,
  decisions: readonly ConfirmationDecision[],
  session: Session,
  options: { readonly seal?: SealOptions } = {},
): void {
  checkStateSeal(PAUSED_RUN_SEAL, paused, options.seal, 'paused run');
  checkPausedRun(paused, { session });
  checkDecisions(paused.pending, decisions);
}

/** The paused state must be internally consistent and belong to this session; returns the turn's calls. */
function checkPausedRun(paused: PausedRun, options: Pick<ResumeOptions, 'session'>): ToolCallPart[] {
  if (paused.version !== 1) throw new InvalidResumeError(`unknown paused-run version ${String(paused.version)}.`);
  const lists = [paused.messages, paused.turns, paused.pending, paused.results];
  if (!lists.every((list) => Array.isArray(list))) {
    throw new InvalidResumeError('its messages, turns, pending calls or results are not lists.');
  }
  // The turn numbers calls are judged by (an untrusted source gates the calls of later turns) follow the
  // turns played: a paused turn that is not the last one played would shift them.
  if (paused.turn !== paused.turns.length) {
    throw new InvalidResumeError(`it paused on turn ${String(paused.turn)} but lists ${paused.turns.length} turns.`);
  }
  if (paused.sessionId !== options.session.id || paused.humanId !== options.session.humanId) {
    throw new InvalidResumeError(
      'it belongs to another session or human. Resume it with the session of the human who was asked to confirm.',
    );
  }
  const last: Message | undefined = paused.messages.at(-1);
  if (last?.role !== 'assistant') {
    throw new InvalidResumeError('its messages do not end with the assistant turn that made the pending calls.');
  }
  const calls = toolCallsOf(last.content);
  if (paused.results.length !== calls.length) {
    throw new InvalidResumeError(`it has ${paused.results.length} result slots for ${calls.length} calls.`);
  }
  const pendingIndexes = new Set(paused.pending.map((pending) => pending.index));
  for (const [index, result] of paused.results.entries()) {
    if ((result === null) !== pendingIndexes.has(index)) {
      throw new InvalidResumeError(`result slot ${index} does not match the pending calls.`);
    }
  }
  for (const pending of paused.pending) {
    const call = calls[pending.index];
    if (call === undefined || call.id !== pending.callId || call.name !== pending.toolName) {
      throw new InvalidResumeError(`pending call "${pending.callId}" is not the call at position ${pending.index}.`);
    }
    // Both the shown input and the call in the conversation must still be the arguments that were digested.
    if (jsonDigest(pending.input) !== pending.inputDigest || jsonDigest(call.input) !== pending.inputDigest) {
      throw new InvalidResumeError(`the arguments of pending call "${pending.callId}" no longer match their digest.`);
    }
  }
  return calls;
}

function checkDecisions(
  pending: readonly PendingCall[],
  decisions: readonly ConfirmationDecision[],
): Map<string, ConfirmationDecision> {
  const byId = new Map<string, ConfirmationDecision>();
  const pendingById = new Map(pending.map((call) => [call.callId, call]));
  for (const decision of decisions) {
    const call = pendingById.get(decision.callId);
    if (call === undefined) throw new InvalidResumeError(`there is no pending call "${decision.callId}" to decide.`);
    if (byId.has(decision.callId)) throw new InvalidResumeError(`call "${decision.callId}" was decided twice.`);
    if (decision.vouched !== undefined) checkVouched(decision);
    if (decision.approved && decision.inputDigest !== undefined && decision.inputDigest !== call.inputDigest) {
      throw new InvalidResumeError(
        `the approval of call "${decision.callId}" is for other arguments than the pending ones; show the human the pending input and ask again.`,
      );
    }
    byId.set(decision.callId, decision);
  }
  const undecided = pending.filter((call) => !byId.has(call.callId)).map((call) => call.callId);
  if (undecided.length > 0) {
    throw new InvalidResumeError(`no decision for pending call(s) ${undecided.join(', ')}; decide every pending call.`);
  }
  return byId;
}

/** Vouched values come with an approval, each a path and a string, number or boolean the human gave. */
function checkVouched(decision: ConfirmationDecision): void {
  const { vouched } = decision;
  const valid =
    Array.isArray(vouched) &&
    vouched.every(
      (item) =>
        typeof item === 'object' &&
        item !== null &&
        typeof item.path === 'string' &&
        (typeof item.value === 'string' ||
          typeof item.value === 'boolean' ||
          (typeof item.value === 'number' && Number.isFinite(item.value))),
    );
  if (!valid) {
    throw new InvalidResumeError(
      `the vouched values of call "${decision.callId}" are not a list of { path, value } with a string, number or boolean value.`,
    );
  }
  if (!decision.approved && (vouched as readonly unknown[]).length > 0) {
    throw new InvalidResumeError(
      `call "${decision.callId}" is declined but carries vouched values; vouch only with an approval.`,
    );
  }
}

/**
 * The paused step's tools, from its plan and the tools loaded by then: a resumed call is checked against what
 * its step offered.
 */
function resumedScope(
  options: ResumeOptions,
  paused: PausedRun,
  loadedTools: LoadedTools | undefined,
): StepScope | undefined {
  const plan = paused.step;
  if (plan === undefined) return undefined;
  const names = Array.isArray(plan.activeTools)
    ? plan.activeTools.filter((name) => typeof name === 'string')
    : undefined;
  const active = names === undefined ? undefined : new Set(names);
  return {
    active,
    tools: offeredTools(options.catalogue, loadedTools, active).tools,
    plan,
  };
}

function deniedText(name: string, note: string | undefined): string {
  const reason = note === undefined || note === '' ? '' : ` (their note: ${note.slice(0, 200)})`;
  return (
    `The user declined to confirm this call to "${name}"${reason}, so it did not run. Do not call it again with ` +
    'these arguments unless the user asks; ask them what they would like to do instead.'
  );
}
