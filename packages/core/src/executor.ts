import { randomUUID } from 'node:crypto';
import { isAuthorized } from './authorize.js';
import { canonicalCopy } from './canonical-copy.js';
import { canonicalJson, jsonDigest, sha256Hex } from './canonical-json.js';
import type { Catalogue, CatalogueEntry } from './catalogue.js';
import { JournalWriteError } from './errors/journal-write-error.js';
import { andThen, type Eventually, isPromiseLike } from './eventually.js';
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

/** The call's input, copied once: the tool gets its own copy, the journal and the digest the model's bytes. */
interface PreparedInput {
  /** What is validated and handed to the tool (the tool may mutate it: it is its own copy). */
  readonly copy: JsonValue | undefined;
  /**
   * The input's canonical JSON: made on first use from `source` (only a journal, `beforeRun`, an irreversible
   * tool or a reader of the outcome's `inputDigest` needs it); `null` when there is no usable input.
   */
  canonical: string | null | undefined;
  /** The SHA-256 of `canonical`, hashed on first use; `null` when there is no usable input. */
  digest: string | null | undefined;
  /** The model's input, which nothing in the circuit mutates (the tool only ever sees `copy`). */
  readonly source: unknown;
}

interface Attempt {
  readonly call: ToolCallPart;
  readonly context: ExecutionContext;
  readonly runId: string;
  /** Read only by the journal, so only built when there is one. */
  readonly at: string | undefined;
  readonly startedAt: number;
  readonly prepared: PreparedInput;
}

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
  const { copy } = attempt.prepared;
  if (copy === undefined) return refuse(attempt, 'invalid_input', notJsonText(call.name));
  return andThen(entry.validate(copy), (validation) => checkAndRun(attempt, entry, validation));
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
  const inputDigest = digestOf(attempt.prepared);
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
  return {
    call,
    context,
    runId: context.runId ?? randomUUID(),
    at: context.journal === undefined ? undefined : new Date().toISOString(),
    startedAt: performance.now(),
    prepared: prepareInput(call),
  };
}

function prepareInput(call: ToolCallPart): PreparedInput {
  const source = call.input;
  if (call.inputError !== undefined) return { copy: undefined, canonical: null, digest: null, source };
  // What adapters produce (JSON.parse output) is copied directly; the canonical text waits until needed.
  const plain = plainJsonCopy(source);
  if (plain !== undefined) return { copy: plain, canonical: undefined, digest: undefined, source };
  try {
    // Anything else (toJSON, -0, undefined members, deep nesting) exactly as canonical JSON reads it.
    const { canonical, copy } = canonicalCopy(source);
    return { copy, canonical, digest: undefined, source };
  } catch {
    return { copy: undefined, canonical: null, digest: null, source };
  }
}

function canonicalOf(prepared: PreparedInput): string | null {
  if (prepared.canonical === undefined) prepared.canonical = canonicalJson(prepared.source);
  return prepared.canonical;
}

function digestOf(prepared: PreparedInput): string | null {
  if (prepared.digest === undefined) {
    const canonical = canonicalOf(prepared);
    prepared.digest = canonical === null ? null : sha256Hex(canonical);
  }
  return prepared.digest;
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
  await beforeRun({ runId: attempt.runId, turn: context.turn ?? 1, call, inputDigest: digestOf(attempt.prepared) });
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
  // Only a timeout or the loop's signal can abort the tool: without either, a controller is made only if
  // the tool reads its signal (one per call, so listeners a tool leaves on it die with the call).
  let controller = timeoutMs !== undefined || context.signal !== undefined ? new AbortController() : undefined;
  const toolContext: ToolContext = {
    session: context.session,
    get signal(): AbortSignal {
      controller ??= new AbortController();
      return controller.signal;
    },
    callId: call.id,
    runId: attempt.runId,
    toolName: call.name,
    turn: context.turn ?? 1,
  };
  let output: ToolOutput | PromiseLike<ToolOutput>;
  try {
    output = entry.definition.run(input as never, toolContext);
  } catch (error) {
    return answerRun(attempt, { kind: 'threw', error });
  }
  if (!isPromiseLike(output)) return answerRun(attempt, { kind: 'returned', output });
  return raceTool(output, call.name, timeoutMs, context.signal, () => controller).then((outcome) =>
    answerRun(attempt, outcome),
  );
}

/** Whatever settles first wins; the tool's signal is aborted after, so a tool reacting to it cannot race. */
async function raceTool(
  pending: PromiseLike<ToolOutput>,
  toolName: string,
  timeoutMs: number | undefined,
  signal: AbortSignal | undefined,
  controllerOf: () => AbortController | undefined,
): Promise<RunOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const outcome = await new Promise<RunOutcome>((resolve) => {
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        resolve({ kind: 'timed_out', timeoutMs });
        controllerOf()?.abort(new Error(`Tool "${toolName}" timed out after ${timeoutMs} ms`));
      }, timeoutMs);
    }
    if (signal !== undefined) {
      onAbort = () => {
        resolve({ kind: 'aborted' });
        controllerOf()?.abort(signal.reason);
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
    case 'threw': {
      const detail = describeError(outcome.error);
      return finish(attempt, { kind: 'failed', message: detail }, failedText(call.name, detail), { detail });
    }
    case 'returned': {
      const normalised = normaliseToolOutput(outcome.output);
      if (!normalised.ok) {
        const detail = `tool "${call.name}" returned an unusable value: ${normalised.message}`;
        return finish(attempt, { kind: 'failed', message: detail }, failedText(call.name, normalised.message), {
          detail,
        });
      }
      return finish(attempt, { kind: 'executed', isError: normalised.isError }, normalised.content, {
        isError: normalised.isError,
      });
    }
  }
}

function refuse(attempt: Attempt, reason: RefusalReason, message: string): Eventually<ExecutionOutcome> {
  return finish(attempt, { kind: 'refused', reason, message }, message);
}

const NO_EXTRA: { readonly isError?: boolean; readonly detail?: string } = {};

function finish(
  attempt: Attempt,
  verdict: Verdict,
  content: ToolResultContent,
  extra: { readonly isError?: boolean; readonly detail?: string } = NO_EXTRA,
): Eventually<ExecutionOutcome> {
  const { call, context, prepared } = attempt;
  const durationMs = performance.now() - attempt.startedAt;
  const isError = verdict.kind === 'executed' ? (extra.isError ?? false) : true;
  const result: ToolResultPart = { type: 'tool_result', callId: call.id, name: call.name, content, isError };
  const outcome: ExecutionOutcome = {
    result,
    verdict,
    durationMs,
    // A getter, so that a run nobody asks the digest of never hashes (same value, computed once).
    get inputDigest(): string | null {
      return digestOf(prepared);
    },
  };
  if (context.journal === undefined) return outcome;
  const canonical = canonicalOf(prepared);
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
    inputDigest: digestOf(prepared),
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
