import { andThen, type Eventually, isPromiseLike } from '../async/eventually.js';
import { isAborted } from '../async/is-aborted.js';
import type { CatalogueEntry } from '../catalogue/catalogue.js';
import type { ToolOutput } from '../catalogue/tool.js';
import { isToolRefusal } from '../catalogue/tool-refusal.js';
import type { ToolSearch } from '../catalogue/tool-search.js';
import type { InputValidation } from '../catalogue/validate-input.js';
import type { DataFlowReport } from '../data-flow/data-flow-report.js';
import { unknownReferenceText } from '../data-flow/data-flow-texts.js';
import type { RunDataFlow } from '../data-flow/run-data-flow.js';
import { JournalWriteError } from '../errors/journal-write-error.js';
import type { JsonValue } from '../json/json.js';
import type { ToolCallPart, ToolResultContent, ToolResultPart } from '../messages/messages.js';
import { type ConfirmationRequest, informedConfirmation } from '../provenance/confirmation-request.js';
import type { TaintPolicy } from '../provenance/provenance-options.js';
import type { CallGate } from '../provenance/run-provenance.js';
import type { Confirmation } from '../session/confirm.js';
import type { Session } from '../session/session.js';
import { AnsweredCall } from './answered-call.js';
import { type Attempt, canonicalOf, digestOf, startAttempt } from './attempt.js';
import { isAuthorized } from './authorize.js';
import { recordProvenance } from './call-provenance.js';
import { CallToolContext } from './call-tool-context.js';
import type { ExecutionContext } from './execution-context.js';
import type { ExecutionOutcome } from './execution-outcome.js';
import { journalEntryOf } from './journal-entry.js';
import {
  abortedText,
  awaitingText,
  confirmationText,
  describeError,
  failedText,
  freshConfirmationText,
  inactiveToolText,
  malformedJsonText,
  missingRightText,
  notJsonText,
  notLoadedText,
  timedOutText,
  unknownToolText,
  untrustedContextText,
} from './model-facing-texts.js';
import { type RaceAnswers, raceTool } from './race-tool.js';
import { repairedAttempt } from './repair-attempt.js';
import type { RepairProblem, RepairToolCall } from './repair-call.js';
import { offeredNames, offeredSearch, unavailableReason } from './tool-availability.js';
import { normaliseToolOutput } from './tool-output.js';
import type { RefusalReason, Verdict } from './verdict.js';

/**
 * Runs one call through the four checks, in this order, each assuming the previous one passed:
 * 1. the tool exists; 2. the input is valid against its schema; 3. the session holds the tool's right;
 * 4. an irreversible call holds a confirmation, by the session's human, of these exact arguments.
 * Only then does the tool run, with a timeout and the abort signal.
 *
 * Every attempt is journaled. Refusals, thrown errors, timeouts and aborts all come back as `isError`
 * results; the only thing that throws is the journal itself failing ({@link JournalWriteError}), since a
 * call that cannot be recorded must not be reported as handled.
 */
export async function executeCall(call: ToolCallPart, context: ExecutionContext): Promise<ExecutionOutcome> {
  return answerCall(call, context);
}

/**
 * {@link executeCall} without a promise when none is needed: a call whose validation, tool and journal all
 * answer at once is answered at once (the loop's path); anything that waits makes it a promise. A journal
 * failure is thrown (synchronously, or as the promise's rejection).
 */
export function answerCall(call: ToolCallPart, context: ExecutionContext): Eventually<ExecutionOutcome> {
  return answerAttempt(startAttempt(call, context));
}

function answerAttempt(attempt: Attempt): Eventually<ExecutionOutcome> {
  const { call, context } = attempt;
  const { catalogue } = context;
  if (context.signal?.aborted === true) return finish(attempt, { kind: 'aborted' }, abortedText(call.name));

  let entry = typeof call.name === 'string' ? catalogue.get(call.name) : undefined;
  // A tool the run's data-flow options add (a plan declaration, an extraction): offered at every step.
  const builtIn =
    entry === undefined && typeof call.name === 'string' ? flowOf(context)?.builtIn(call.name) : undefined;
  if (entry === undefined && builtIn === undefined) {
    const offered = offeredNames(context);
    const text = unknownToolText(call.name, offered, offeredSearch(catalogue, offered));
    return refuseOrRepair(attempt, 'unknown_tool', 'unknown_tool', text);
  }
  entry ??= builtIn as CatalogueEntry;
  // Exists, but not offered at this step: not loaded by a search yet, or left out by the step's plan.
  const unavailable = builtIn === undefined ? unavailableReason(call.name, context) : undefined;
  if (unavailable === 'tool_not_loaded') {
    const text = notLoadedText(call.name, (catalogue.toolSearch as ToolSearch).name);
    return refuseOrRepair(attempt, 'tool_not_loaded', 'tool_not_loaded', text);
  }
  if (unavailable === 'inactive_tool') {
    return refuseOrRepair(
      attempt,
      'inactive_tool',
      'inactive_tool',
      inactiveToolText(call.name, offeredNames(context)),
    );
  }

  if (call.inputError !== undefined) {
    return refuseOrRepair(attempt, 'invalid_input', 'malformed_json', malformedJsonText(call.name, call.inputError));
  }
  const { copy } = attempt;
  if (copy === undefined) return refuseOrRepair(attempt, 'invalid_input', 'malformed_json', notJsonText(call.name));
  // The built-in tools take handles, not values: only the application's tools get references resolved.
  const input = builtIn === undefined ? withReferences(attempt, copy) : copy;
  if (input === undefined) return refuse(attempt, 'unknown_reference', unknownReferenceOf(attempt));
  const found = entry;
  const validation = found.validate(input);
  if (isPromiseLike(validation)) return validation.then((checked) => checkAndRun(attempt, found, checked));
  return checkAndRun(attempt, found, validation);
}

function flowOf(context: ExecutionContext): RunDataFlow | undefined {
  return context.provenance?.dataFlow;
}

/**
 * The input the tool would get: references to values extracted from quarantined documents replaced by the
 * values (noted on the attempt, so the values' source is known exactly); `undefined` when an argument is a
 * reference the run does not hold.
 */
function withReferences(attempt: Attempt, copy: JsonValue): JsonValue | undefined {
  const flow = flowOf(attempt.context);
  if (flow === undefined || !flow.resolves) return copy;
  const resolved = flow.resolve(copy);
  if (resolved.unknown.length > 0) {
    attempt.unknownReferences = resolved.unknown;
    return undefined;
  }
  if (resolved.references.length > 0) attempt.references = resolved.references;
  return resolved.input;
}

function unknownReferenceOf(attempt: Attempt): string {
  return unknownReferenceText(
    attempt.call.name,
    attempt.unknownReferences ?? [],
    flowOf(attempt.context)?.handles() ?? [],
  );
}

/**
 * A call refused by the first two checks: refused, unless the run has a repair hook and this call is not
 * itself a repair. The repaired call goes through all four checks again (see `repairThenAnswer`).
 */
function refuseOrRepair(
  attempt: Attempt,
  reason: RefusalReason,
  problem: RepairProblem,
  message: string,
): Eventually<ExecutionOutcome> {
  const { repair } = attempt.context;
  if (repair === undefined || attempt.repairOf !== undefined) return refuse(attempt, reason, message);
  return repairThenAnswer(attempt, reason, problem, message, repair);
}

/** Checks 2 to 4 once the input has been validated, then the tool. */
function checkAndRun(
  attempt: Attempt,
  entry: CatalogueEntry,
  validation: InputValidation,
): Eventually<ExecutionOutcome> {
  if (!validation.ok) return refuseOrRepair(attempt, 'invalid_input', 'invalid_input', validation.message);
  const { definition } = entry;
  if (!isAuthorized(definition.right, attempt.context.session)) {
    return refuse(attempt, 'missing_right', missingRightText(entry));
  }
  const flow = flowOf(attempt.context);
  if (flow !== undefined) return flowThenRun(attempt, entry, validation.value, flow);
  return gateThenRun(attempt, entry, validation.value);
}

/** The fourth check: a gated call needs a fresh, informed confirmation, an irreversible one a confirmation. */
function gateThenRun(attempt: Attempt, entry: CatalogueEntry, input: unknown): Eventually<ExecutionOutcome> {
  const gate = gateOf(attempt, entry);
  if (gate !== undefined) return gatedThenRun(attempt, entry, input, gate);
  if (entry.definition.irreversible) return confirmThenRun(attempt, entry, input);
  return runTool(attempt, entry, input);
}

/**
 * The run's data-flow options, between the right and the confirmation: a gated call outside the frozen plan
 * is refused without asking; a value at a trusted-only path that no trusted source holds is refused, or held
 * (in pause mode) for the human to vouch for it, which a plain approval does not do.
 */
function flowThenRun(
  attempt: Attempt,
  entry: CatalogueEntry,
  input: unknown,
  flow: RunDataFlow,
): Eventually<ExecutionOutcome> {
  const { call, context } = attempt;
  const checked = flow.check(call, entry.definition, input as JsonValue, attempt.references ?? [], context.turn ?? 1);
  return andThen(checked, (check) => {
    if (check.report !== undefined) attempt.dataFlow = check.report;
    if (check.kind === 'pass') return gateThenRun(attempt, entry, input);
    const reason = check.kind === 'unplanned' ? 'unplanned_call' : 'untrusted_value';
    const refused = (): Eventually<ExecutionOutcome> =>
      finish(attempt, { kind: 'refused', reason, message: check.message, dataFlow: check.report }, check.message);
    const vouchable = check.kind === 'untrusted' && (check.report.vouchFor?.length ?? 0) > 0;
    if (!vouchable || context.confirmation !== 'pause') return refused();
    return holdForVouching(attempt, entry, check.report, refused);
  });
}

/**
 * A call held for the human to vouch for its values: with what a gated call's confirmation shows, unless the
 * application's provenance policy refuses the tool outright. The resume re-checks it: a plain approval leaves
 * the values untrusted and the call refused.
 */
async function holdForVouching(
  attempt: Attempt,
  entry: CatalogueEntry,
  report: DataFlowReport,
  refused: () => Eventually<ExecutionOutcome>,
): Promise<ExecutionOutcome> {
  const { call, context } = attempt;
  const inputDigest = digestOf(attempt);
  if (inputDigest === null) return refused();
  const gate = gateOf(attempt, entry);
  if (gate !== undefined) {
    attempt.gate = gate;
    gate.policy = await policyOf(context, gate.request);
    if (gate.policy === 'refuse') return refuse(attempt, 'untrusted_context', untrustedContextText(call.name));
  }
  const verdict: Verdict = {
    kind: 'awaiting_confirmation',
    inputDigest,
    ...(gate === undefined ? {} : { request: gate.request }),
    dataFlow: report,
  };
  return finish(attempt, verdict, awaitingText(call.name));
}

/** The provenance gate of a call, when the run tracks provenance and untrusted output makes it one. */
function gateOf(attempt: Attempt, entry: CatalogueEntry) {
  const { provenance } = attempt.context;
  const turn = attempt.context.turn ?? 1;
  // Cheap first: most calls are neither gated tools nor made after untrusted output, and need no digest.
  const { call } = attempt;
  if (provenance === undefined || !provenance.mayGate(call.name, entry.definition, turn, call.id)) return undefined;
  const canonical = canonicalOf(attempt);
  const inputDigest = digestOf(attempt);
  if (canonical === null || inputDigest === null) return undefined;
  const scope = { humanId: attempt.context.session.humanId, runId: attempt.runId };
  return provenance.gateOf(call, entry.definition, JSON.parse(canonical), inputDigest, turn, scope);
}

/**
 * A gated call (irreversible or sensitive, made after untrusted output entered the run): the application's
 * policy decides, and under `pause` (the default) it runs only with a confirmation that names the current
 * taint digest, i.e. one given once these untrusted sources had arrived, by a human shown them.
 */
async function gatedThenRun(
  attempt: Attempt,
  entry: CatalogueEntry,
  input: unknown,
  gate: CallGate,
): Promise<ExecutionOutcome> {
  const { call, context } = attempt;
  attempt.gate = gate;
  const { request } = gate;
  gate.policy = await policyOf(context, request);
  if (gate.policy === 'allow') {
    return entry.definition.irreversible ? confirmThenRun(attempt, entry, input) : runTool(attempt, entry, input);
  }
  if (gate.policy === 'refuse') return refuse(attempt, 'untrusted_context', untrustedContextText(call.name));
  if (await consumeConfirmation(context.session, informedConfirmation(request))) return runTool(attempt, entry, input);
  if (context.confirmation === 'pause') {
    return finish(
      attempt,
      withFlowReport(attempt, { kind: 'awaiting_confirmation', inputDigest: request.inputDigest, request }),
      awaitingText(call.name),
    );
  }
  const message = freshConfirmationText(call.name, request.inputDigest, request.gatedBecause);
  return finish(attempt, { kind: 'refused', reason: 'confirmation_required', message, request }, message);
}

/** A held call's verdict with where its values came from, when the data-flow options found out. */
function withFlowReport(attempt: Attempt, verdict: Verdict & { kind: 'awaiting_confirmation' }): Verdict {
  return attempt.dataFlow === undefined ? verdict : { ...verdict, dataFlow: attempt.dataFlow };
}

/** Fail closed: a policy hook that throws refuses the call rather than letting it through. */
async function policyOf(context: ExecutionContext, request: ConfirmationRequest): Promise<TaintPolicy> {
  try {
    const policy = await context.provenance?.policyFor(request);
    return policy === 'allow' || policy === 'refuse' ? policy : 'pause';
  } catch {
    return 'refuse';
  }
}

async function confirmThenRun(attempt: Attempt, entry: CatalogueEntry, input: unknown): Promise<ExecutionOutcome> {
  const { call, context } = attempt;
  const inputDigest = digestOf(attempt);
  // Unreachable (a copy was made, so there is a canonical text); refused rather than confirmed against nothing.
  if (inputDigest === null) return refuse(attempt, 'invalid_input', notJsonText(call.name));
  const confirmed = await consumeConfirmation(context.session, {
    toolName: call.name,
    inputDigest,
    humanId: context.session.humanId,
    runId: attempt.runId,
  });
  if (!confirmed) {
    if (context.confirmation === 'pause') {
      return finish(
        attempt,
        withFlowReport(attempt, { kind: 'awaiting_confirmation', inputDigest }),
        awaitingText(call.name),
      );
    }
    return refuse(attempt, 'confirmation_required', confirmationText(call.name, inputDigest));
  }
  return runTool(attempt, entry, input);
}

/**
 * Answers a call the loop must not run (a duplicate id, a call from a truncated turn) and journals it like
 * any other attempt, so the journal still holds one entry per request.
 */
export async function refuseCall(
  call: ToolCallPart,
  reason: RefusalReason,
  message: string,
  context: ExecutionContext,
): Promise<ExecutionOutcome> {
  return refuse(startAttempt(call, context), reason, message);
}

/**
 * Asks the hook once. Whatever it returns is checked before anything else happens; the rewritten call is then
 * answered like any call (four checks, journal), with its own refusal if it fails one. A hook that throws or
 * returns something unusable leaves the original refusal: the loop never fails because of it.
 */
async function repairThenAnswer(
  attempt: Attempt,
  reason: RefusalReason,
  problem: RepairProblem,
  message: string,
  repair: RepairToolCall,
): Promise<ExecutionOutcome> {
  const { call, context } = attempt;
  let returned: unknown;
  try {
    returned = await repair({
      call,
      problem,
      message,
      tools: context.tools ?? context.catalogue.declarations,
      runId: attempt.runId,
      turn: context.turn ?? 1,
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
  } catch (error) {
    attempt.repairNote = { problem, outcome: 'failed', detail: `the repair hook threw ${describeError(error)}` };
    return refuse(attempt, reason, message);
  }
  if (returned === undefined || returned === null) {
    attempt.repairNote = { problem, outcome: 'declined' };
    return refuse(attempt, reason, message);
  }
  const next = repairedAttempt(attempt, problem, returned);
  if (typeof next === 'string') {
    attempt.repairNote = { problem, outcome: 'failed', detail: next };
    return refuse(attempt, reason, message);
  }
  return answerAttempt(next);
}

async function consumeConfirmation(session: Session, confirmation: Confirmation): Promise<boolean> {
  try {
    return await session.confirmations.consume(confirmation);
  } catch {
    // Fail closed: a store that cannot answer has not confirmed anything.
    return false;
  }
}

function runTool(attempt: Attempt, entry: CatalogueEntry, input: unknown): Eventually<ExecutionOutcome> {
  const { call, context } = attempt;
  // The checks may have been async (validation, confirmation store): the signal may have fired meanwhile,
  // and an 'abort' listener added after the fact would never be called.
  if (context.signal?.aborted === true) return finish(attempt, { kind: 'aborted' }, abortedText(call.name));
  if (context.beforeRun !== undefined) return announceThenStart(attempt, entry, input, context.beforeRun);
  return startTool(attempt, entry, input);
}

async function announceThenStart(
  attempt: Attempt,
  entry: CatalogueEntry,
  input: unknown,
  beforeRun: NonNullable<ExecutionContext['beforeRun']>,
): Promise<ExecutionOutcome> {
  const { call, context } = attempt;
  await beforeRun({ runId: attempt.runId, turn: context.turn ?? 1, call, inputDigest: digestOf(attempt) });
  if (isAborted(context.signal)) return finish(attempt, { kind: 'aborted' }, abortedText(call.name));
  return startTool(attempt, entry, input);
}

/**
 * Starts the tool. A tool that answers synchronously is done before any timer could fire, so it is answered
 * at once; only a promise is raced against the timeout and the loop's signal.
 */
function startTool(attempt: Attempt, entry: CatalogueEntry, input: unknown): Eventually<ExecutionOutcome> {
  const { call, context } = attempt;
  const timeoutMs = entry.definition.timeoutMs ?? context.timeoutMs;
  const toolContext = new CallToolContext(attempt);
  let output: ToolOutput | PromiseLike<ToolOutput>;
  let promised: boolean;
  try {
    output = entry.definition.run(input as never, toolContext);
    // Reads `then`, which a hostile value may make throw: that is the tool failing, not the loop.
    promised = isPromiseLike(output);
  } catch (error) {
    return answerThrown(attempt, error);
  }
  if (!promised) return answerReturned(attempt, output as ToolOutput);
  if (timeoutMs === undefined && context.signal === undefined) {
    // Nothing to race (no timeout, no signal): answered straight from the tool's promise, one `then`.
    return Promise.resolve(output as PromiseLike<ToolOutput>).then(
      (returned) => answerReturned(attempt, returned),
      (error: unknown) => answerThrown(attempt, error),
    );
  }
  return raceTool(
    output as PromiseLike<ToolOutput>,
    call.name,
    timeoutMs,
    context.signal,
    toolContext,
    attempt,
    RACE_ANSWERS,
  );
}

/** How a raced tool's call is answered: one table for every call, so a race makes no closure per answer. */
const RACE_ANSWERS: RaceAnswers<Attempt, ExecutionOutcome> = {
  returned: (attempt, output) => answerReturned(attempt, output),
  threw: (attempt, error) => answerThrown(attempt, error),
  timedOut: (attempt, timeoutMs) =>
    finish(attempt, { kind: 'timed_out', timeoutMs }, timedOutText(attempt.call.name, timeoutMs)),
  aborted: (attempt) => finish(attempt, { kind: 'aborted' }, abortedText(attempt.call.name)),
};

function answerThrown(attempt: Attempt, error: unknown): Eventually<ExecutionOutcome> {
  const detail = describeError(error);
  return finish(attempt, { kind: 'failed', message: detail }, failedText(attempt.call.name, detail), { detail });
}

const EXECUTED: Verdict = Object.freeze({ kind: 'executed', isError: false });
const EXECUTED_AS_ERROR: Verdict = Object.freeze({ kind: 'executed', isError: true });

function answerReturned(attempt: Attempt, output: ToolOutput): Eventually<ExecutionOutcome> {
  // The tool says it did nothing: a refusal, never journaled as executed.
  if (isToolRefusal(output)) return refuse(attempt, 'tool_refused', output.message);
  const normalised = normaliseToolOutput(output, attempt.context.resultLimits);
  if (!normalised.ok) {
    const detail = `tool "${attempt.call.name}" returned an unusable value: ${normalised.message}`;
    return finish(attempt, { kind: 'failed', message: detail }, failedText(attempt.call.name, normalised.message), {
      detail,
    });
  }
  const { isError } = normalised;
  return finish(attempt, isError ? EXECUTED_AS_ERROR : EXECUTED, normalised.content, isError ? AS_ERROR : NO_EXTRA);
}

function refuse(attempt: Attempt, reason: RefusalReason, message: string): Eventually<ExecutionOutcome> {
  return finish(attempt, { kind: 'refused', reason, message }, message);
}

const NO_EXTRA: { readonly isError?: boolean; readonly detail?: string } = Object.freeze({});
const AS_ERROR: { readonly isError?: boolean; readonly detail?: string } = Object.freeze({ isError: true });

function finish(
  attempt: Attempt,
  verdict: Verdict,
  content: ToolResultContent,
  extra: { readonly isError?: boolean; readonly detail?: string } = NO_EXTRA,
): Eventually<ExecutionOutcome> {
  const { call, context } = attempt;
  const durationMs = performance.now() - attempt.startedAt;
  const isError = verdict.kind === 'executed' ? (extra.isError ?? false) : true;
  const flow = flowOf(context);
  const result: ToolResultPart =
    flow === undefined
      ? { type: 'tool_result', callId: call.id, name: call.name, content, isError }
      : flow.resultOf(
          call,
          context.turn ?? 1,
          { ran: verdict.kind === 'executed' || verdict.kind === 'failed', executed: verdict.kind === 'executed' },
          content,
          isError,
        );
  const outcome = new AnsweredCall(attempt, result, verdict, durationMs);
  recordProvenance(attempt, verdict, result);
  if (context.journal === undefined) return outcome;
  const entry = journalEntryOf(attempt, verdict, content, extra.detail, durationMs);
  let appended: void | Promise<void>;
  try {
    appended = context.journal.append(entry, { result });
  } catch (error) {
    throw new JournalWriteError(call.id, error, attempt.runId);
  }
  if (!isPromiseLike(appended)) return outcome;
  return Promise.resolve(appended).then(
    () => outcome,
    (error: unknown) => {
      throw new JournalWriteError(call.id, error, attempt.runId);
    },
  );
}
