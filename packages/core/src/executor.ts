import { randomUUID } from 'node:crypto';
import { isAuthorized } from './authorize.js';
import { canonicalCopy } from './canonical-copy.js';
import { canonicalJson, jsonDigest, sha256Hex } from './canonical-json.js';
import type { Catalogue, CatalogueEntry } from './catalogue.js';
import { JournalWriteError } from './errors/journal-write-error.js';
import { type Eventually, isPromiseLike } from './eventually.js';
import { isAborted } from './is-aborted.js';
import type { Journal, JournalEntry } from './journal.js';
import type { JsonValue } from './json.js';
import { plainJsonCopy } from './json-copy.js';
import type { ToolCallPart, ToolResultContent, ToolResultPart } from './messages.js';
import type { Session } from './session.js';
import type { ToolContext, ToolOutput } from './tool.js';
import { normaliseToolOutput } from './tool-output.js';
import type { InputValidation } from './validate-input.js';
import type { RefusalReason, Verdict } from './verdict.js';

/** How unconfirmed irreversible calls are handled: refused with an explanation, or held for the human. */
export type ConfirmationMode = 'refuse' | 'pause';

export interface ExecutionContext {
  readonly catalogue: Catalogue;
  readonly session: Session;
  readonly runId?: string;
  /** 1-based model turn, recorded in the journal. */
  readonly turn?: number;
  readonly journal?: Journal;
  /** Aborts waiting for the tool and is forwarded to it. */
  readonly signal?: AbortSignal;
  /** Default timeout for tools that set none themselves. No timeout when both are absent. */
  readonly timeoutMs?: number;
  readonly confirmation?: ConfirmationMode;
  /**
   * Awaited after the four checks passed, just before the tool runs (never for a refused call). A durable
   * store uses it to record "this call is starting" first, so that after a crash it can tell a call that
   * never started (safe to run) from one that may have run. If it throws, the tool does not run and the
   * error propagates: the run stops rather than run a call it could not record.
   */
  readonly beforeRun?: (event: ToolStartEvent) => void | Promise<void>;
}

/** A call that passed the four checks and is about to run. */
export interface ToolStartEvent {
  readonly runId: string;
  readonly turn: number;
  readonly call: ToolCallPart;
  readonly inputDigest: string | null;
}

export interface ExecutionOutcome {
  /** Always present, also for refusals and failures (`isError: true`): the model is told, nothing is thrown. */
  readonly result: ToolResultPart;
  readonly verdict: Verdict;
  readonly durationMs: number;
  /** SHA-256 of the input's canonical JSON (`null` when the provider sent no parsable input). */
  readonly inputDigest: string | null;
}

/**
 * One call being answered, and its input, copied once: the tool gets its own copy, the journal and the digest
 * the model's bytes.
 */
interface Attempt {
  readonly call: ToolCallPart;
  readonly context: ExecutionContext;
  readonly runId: string;
  /** Read only by the journal, so only built when there is one. */
  readonly at: string | undefined;
  readonly startedAt: number;
  /** What is validated and handed to the tool (the tool may mutate it: it is its own copy). */
  readonly copy: JsonValue | undefined;
  /**
   * The input's canonical JSON: made on first use from `call.input`, which nothing in the circuit mutates
   * (only a journal, `beforeRun`, an irreversible tool or a reader of the outcome's `inputDigest` needs it);
   * `null` when there is no usable input.
   */
  canonical: string | null | undefined;
  /** The SHA-256 of `canonical`, hashed on first use; `null` when there is no usable input. */
  digest: string | null | undefined;
}

/**
 * An outcome whose input digest is hashed only if someone reads it. The getter is an own, enumerable
 * property (so `{ ...outcome }` keeps the digest), defined from one shared descriptor: an object literal
 * with a getter costs about a microsecond to make, several times this.
 */
class AnsweredCall implements ExecutionOutcome {
  readonly result: ToolResultPart;
  readonly verdict: Verdict;
  readonly durationMs: number;
  declare readonly inputDigest: string | null;
  readonly #attempt: Attempt;

  constructor(attempt: Attempt, result: ToolResultPart, verdict: Verdict, durationMs: number) {
    this.result = result;
    this.verdict = verdict;
    this.durationMs = durationMs;
    this.#attempt = attempt;
    Object.defineProperty(this, 'inputDigest', INPUT_DIGEST);
  }

  static digestOf(outcome: AnsweredCall): string | null {
    return digestOf(outcome.#attempt);
  }
}

const INPUT_DIGEST: PropertyDescriptor = {
  enumerable: true,
  get(this: AnsweredCall): string | null {
    return AnsweredCall.digestOf(this);
  },
};

/**
 * What the tool is handed. Its signal's controller is made only when the tool reads it (an AbortSignal costs
 * microseconds and a kilobyte), unless a timeout or the loop's signal needs one anyway: one per call, so
 * listeners a tool leaves on it die with the call. `signal` is an own enumerable getter, so a tool that
 * passes `{ ...context }` on keeps it.
 */
class CallToolContext implements ToolContext {
  readonly session: Session;
  readonly callId: string;
  readonly runId: string;
  readonly toolName: string;
  readonly turn: number;
  declare readonly signal: AbortSignal;
  #controller: AbortController | undefined;

  constructor(attempt: Attempt, needsController: boolean) {
    this.session = attempt.context.session;
    this.callId = attempt.call.id;
    this.runId = attempt.runId;
    this.toolName = attempt.call.name;
    this.turn = attempt.context.turn ?? 1;
    this.#controller = needsController ? new AbortController() : undefined;
    Object.defineProperty(this, 'signal', TOOL_SIGNAL);
  }

  static controllerOf(context: CallToolContext, create: boolean): AbortController | undefined {
    if (create) context.#controller ??= new AbortController();
    return context.#controller;
  }
}

const TOOL_SIGNAL: PropertyDescriptor = {
  enumerable: true,
  get(this: CallToolContext): AbortSignal {
    return (CallToolContext.controllerOf(this, true) as AbortController).signal;
  },
};

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
  const attempt = startAttempt(call, context);
  const { catalogue } = context;
  if (context.signal?.aborted === true) return finish(attempt, { kind: 'aborted' }, abortedText(call.name));

  const entry = typeof call.name === 'string' ? catalogue.get(call.name) : undefined;
  if (entry === undefined) return refuse(attempt, 'unknown_tool', unknownToolText(call.name, catalogue));

  if (call.inputError !== undefined) {
    return refuse(attempt, 'invalid_input', malformedJsonText(call.name, call.inputError));
  }
  const { copy } = attempt;
  if (copy === undefined) return refuse(attempt, 'invalid_input', notJsonText(call.name));
  const validation = entry.validate(copy);
  if (isPromiseLike(validation)) return validation.then((checked) => checkAndRun(attempt, entry, checked));
  return checkAndRun(attempt, entry, validation);
}

/** Checks 2 to 4 once the input has been validated, then the tool. */
function checkAndRun(
  attempt: Attempt,
  entry: CatalogueEntry,
  validation: InputValidation,
): Eventually<ExecutionOutcome> {
  if (!validation.ok) return refuse(attempt, 'invalid_input', validation.message);
  const { definition } = entry;
  if (!isAuthorized(definition.right, attempt.context.session)) {
    return refuse(attempt, 'missing_right', missingRightText(entry));
  }
  if (definition.irreversible) return confirmThenRun(attempt, entry, validation.value);
  return runTool(attempt, entry, validation.value);
}

async function confirmThenRun(attempt: Attempt, entry: CatalogueEntry, input: unknown): Promise<ExecutionOutcome> {
  const { call, context } = attempt;
  const inputDigest = digestOf(attempt);
  // Unreachable (a copy was made, so there is a canonical text); refused rather than confirmed against nothing.
  if (inputDigest === null) return refuse(attempt, 'invalid_input', notJsonText(call.name));
  const confirmed = await consumeConfirmation(context.session, call.name, inputDigest);
  if (!confirmed) {
    if (context.confirmation === 'pause') {
      return finish(attempt, { kind: 'awaiting_confirmation', inputDigest }, awaitingText(call.name));
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

function startAttempt(call: ToolCallPart, context: ExecutionContext): Attempt {
  const input = inputOf(call);
  return {
    call,
    context,
    runId: context.runId ?? randomUUID(),
    at: context.journal === undefined ? undefined : new Date().toISOString(),
    startedAt: performance.now(),
    copy: input.copy,
    canonical: input.canonical,
    digest: input.canonical === null ? null : undefined,
  };
}

const NO_INPUT = Object.freeze({ copy: undefined, canonical: null });

function inputOf(call: ToolCallPart): {
  readonly copy: JsonValue | undefined;
  readonly canonical: string | null | undefined;
} {
  if (call.inputError !== undefined) return NO_INPUT;
  // What adapters produce (JSON.parse output) is copied directly; the canonical text waits until needed.
  const plain = plainJsonCopy(call.input);
  if (plain !== undefined) return { copy: plain, canonical: undefined };
  try {
    // Anything else (toJSON, -0, undefined members, deep nesting) exactly as canonical JSON reads it.
    return canonicalCopy(call.input);
  } catch {
    return NO_INPUT;
  }
}

function canonicalOf(attempt: Attempt): string | null {
  if (attempt.canonical === undefined) attempt.canonical = canonicalJson(attempt.call.input);
  return attempt.canonical;
}

function digestOf(attempt: Attempt): string | null {
  if (attempt.digest === undefined) {
    const canonical = canonicalOf(attempt);
    attempt.digest = canonical === null ? null : sha256Hex(canonical);
  }
  return attempt.digest;
}

async function consumeConfirmation(session: Session, toolName: string, inputDigest: string): Promise<boolean> {
  try {
    return await session.confirmations.consume({ toolName, inputDigest });
  } catch {
    // Fail closed: a store that cannot answer has not confirmed anything.
    return false;
  }
}

type RunOutcome =
  | { readonly kind: 'returned'; readonly output: ToolOutput }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'timed_out'; readonly timeoutMs: number }
  | { readonly kind: 'aborted' };

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
  const toolContext = new CallToolContext(attempt, timeoutMs !== undefined || context.signal !== undefined);
  let output: ToolOutput | PromiseLike<ToolOutput>;
  try {
    output = entry.definition.run(input as never, toolContext);
  } catch (error) {
    return answerThrown(attempt, error);
  }
  if (!isPromiseLike(output)) return answerReturned(attempt, output);
  return raceTool(output, call.name, timeoutMs, context.signal, toolContext).then((outcome) =>
    answerRun(attempt, outcome),
  );
}

/** Whatever settles first wins; the tool's signal is aborted after, so a tool reacting to it cannot race. */
async function raceTool(
  pending: PromiseLike<ToolOutput>,
  toolName: string,
  timeoutMs: number | undefined,
  signal: AbortSignal | undefined,
  toolContext: CallToolContext,
): Promise<RunOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const outcome = await new Promise<RunOutcome>((resolve) => {
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        resolve({ kind: 'timed_out', timeoutMs });
        CallToolContext.controllerOf(toolContext, false)?.abort(
          new Error(`Tool "${toolName}" timed out after ${timeoutMs} ms`),
        );
      }, timeoutMs);
    }
    if (signal !== undefined) {
      onAbort = () => {
        resolve({ kind: 'aborted' });
        CallToolContext.controllerOf(toolContext, false)?.abort(signal.reason);
      };
      // The tool's synchronous part may have fired the signal: a listener added now would never be called.
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    Promise.resolve(pending).then(
      (output) => resolve({ kind: 'returned', output }),
      (error: unknown) => resolve({ kind: 'threw', error }),
    );
  });
  if (timer !== undefined) clearTimeout(timer);
  if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  return outcome;
}

function answerRun(attempt: Attempt, outcome: RunOutcome): Eventually<ExecutionOutcome> {
  const { call } = attempt;
  switch (outcome.kind) {
    case 'timed_out':
      return finish(
        attempt,
        { kind: 'timed_out', timeoutMs: outcome.timeoutMs },
        timedOutText(call.name, outcome.timeoutMs),
      );
    case 'aborted':
      return finish(attempt, { kind: 'aborted' }, abortedText(call.name));
    case 'threw':
      return answerThrown(attempt, outcome.error);
    case 'returned':
      return answerReturned(attempt, outcome.output);
  }
}

function answerThrown(attempt: Attempt, error: unknown): Eventually<ExecutionOutcome> {
  const detail = describeError(error);
  return finish(attempt, { kind: 'failed', message: detail }, failedText(attempt.call.name, detail), { detail });
}

const EXECUTED: Verdict = Object.freeze({ kind: 'executed', isError: false });
const EXECUTED_AS_ERROR: Verdict = Object.freeze({ kind: 'executed', isError: true });

function answerReturned(attempt: Attempt, output: ToolOutput): Eventually<ExecutionOutcome> {
  const normalised = normaliseToolOutput(output);
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
  const result: ToolResultPart = { type: 'tool_result', callId: call.id, name: call.name, content, isError };
  const outcome = new AnsweredCall(attempt, result, verdict, durationMs);
  if (context.journal === undefined) return outcome;
  const canonical = canonicalOf(attempt);
  const entry: JournalEntry = {
    at: attempt.at ?? new Date().toISOString(),
    runId: attempt.runId,
    sessionId: context.session.id,
    humanId: context.session.humanId,
    turn: context.turn ?? 1,
    callId: call.id,
    toolName: call.name,
    // Its own copy again: whatever the tool did to its input, the journal keeps what the model sent.
    input: canonical === null ? null : (JSON.parse(canonical) as JsonValue),
    inputDigest: digestOf(attempt),
    verdict: verdict.kind,
    durationMs,
    ...(call.rawInput !== undefined && call.inputError !== undefined ? { rawInput: call.rawInput } : {}),
    ...(verdict.kind === 'refused' ? { reason: verdict.reason } : {}),
    ...(extra.detail !== undefined ? { detail: extra.detail } : {}),
    ...(verdict.kind === 'executed' ? { outputDigest: jsonDigest(content) } : {}),
  };
  let appended: void | Promise<void>;
  try {
    appended = context.journal.append(entry, { result });
  } catch (error) {
    throw new JournalWriteError(call.id, error);
  }
  if (!isPromiseLike(appended)) return outcome;
  return Promise.resolve(appended).then(
    () => outcome,
    (error: unknown) => {
      throw new JournalWriteError(call.id, error);
    },
  );
}

// The texts below are read by the model: each says what happened and what to do next, and none carries a
// stack trace or an unbounded echo of the input.

function unknownToolText(name: unknown, catalogue: Catalogue): string {
  const names = catalogue.names;
  const shown = names.slice(0, 30).join(', ');
  const more = names.length > 30 ? ` and ${names.length - 30} more` : '';
  const available =
    names.length === 0 ? 'No tools are available in this conversation' : `Available tools: ${shown}${more}`;
  return `There is no tool named ${JSON.stringify(clip(String(name)))}. ${available}. Call one of these by its exact name, or answer without a tool.`;
}

function malformedJsonText(name: string, inputError: string): string {
  return (
    `The arguments for tool "${clip(name)}" were not valid JSON (${clip(inputError, 200)}). ` +
    "Send the arguments again as a single JSON object that matches the tool's input schema."
  );
}

function notJsonText(name: string): string {
  return `The arguments for tool "${clip(name)}" are not plain JSON data. Send them as a single JSON object that matches the tool's input schema.`;
}

function missingRightText(entry: CatalogueEntry): string {
  const right = String(entry.definition.right);
  return (
    `This session is not allowed to use tool "${entry.declaration.name}": it requires the right "${right}", which the ` +
    "signed-in user does not hold. Rights come from the user's login, not from the conversation, so do not retry; " +
    'tell the user this action is not permitted for them.'
  );
}

function confirmationText(name: string, inputDigest: string): string {
  return (
    `Tool "${name}" is irreversible and runs only after the user has confirmed these exact arguments ` +
    `(argument digest ${inputDigest.slice(0, 12)}). It did not run. Show the user exactly what you are about to do, ` +
    'ask them to confirm, and call the tool again with the same arguments once they have; changed arguments need a new confirmation.'
  );
}

function awaitingText(name: string): string {
  return `Tool "${name}" is waiting for the user's confirmation of these exact arguments.`;
}

function failedText(name: string, detail: string): string {
  return (
    `Tool "${name}" failed: ${clip(detail, 200)}. It may not have completed. Retry once only if your arguments could be ` +
    'the cause; otherwise tell the user the action did not complete.'
  );
}

function timedOutText(name: string, timeoutMs: number): string {
  return (
    `Tool "${name}" did not answer within ${timeoutMs} ms and was abandoned; it may or may not have had an effect. ` +
    'Do not assume it succeeded; retry only if repeating it is harmless.'
  );
}

function abortedText(name: string): string {
  return `The run was cancelled before tool "${clip(name)}" finished; there is no result.`;
}

/** `Error.message` only (never the stack): what went wrong, without the internals of where. */
function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `a non-Error value was thrown (${clip(String(error), 100)})`;
}

function clip(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
