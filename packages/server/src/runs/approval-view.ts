import type {
  DataFlowReport,
  FlaggedArgument,
  JsonValue,
  PausedRun,
  PendingCall,
  TaintSource,
  TaintSourceRef,
} from '@toolcircuit/core';

/** How much of an untrusted source's text an approval shows around what the arguments took from it. */
const EXCERPT_CHARS = 400;

/** An untrusted source as an approval shows it: the reference, and an excerpt of what it said. */
export interface SourceView extends TaintSourceRef {
  /** Part of the source's text: around the first argument value copied from it, else its beginning. */
  readonly excerpt: string;
  /** Whether the excerpt leaves text out. */
  readonly truncated: boolean;
}

/** One pending irreversible call as the human who must decide it is shown it. */
export interface ApprovalView {
  readonly runId: string;
  readonly turn: number;
  readonly callId: string;
  readonly toolName: string;
  /** The exact arguments the call will run with. */
  readonly input: JsonValue;
  /** Send it back with the decision: it binds the decision to these arguments. */
  readonly inputDigest: string;
  /** Present once untrusted output is in the run: send it back with an approval (it binds what was shown). */
  readonly taintDigest?: string;
  readonly gatedBecause?: 'irreversible' | 'sensitive';
  /** The untrusted sources in the run's context when the call was made, with excerpts. */
  readonly untrustedSources: readonly SourceView[];
  /** Argument values found in those sources. */
  readonly flaggedArguments: readonly FlaggedArgument[];
  /** Present when the run's data-flow options had a say (see core's `PendingCall.dataFlow`). */
  readonly dataFlow?: DataFlowReport;
  /** When the run paused. */
  readonly pausedAt: string;
}

/** The pending calls of a paused state, each with its informed request and source excerpts. */
export function approvalsOf(paused: PausedRun, pausedAt: string): ApprovalView[] {
  return paused.pending.map((pending) => approvalOf(paused, pending, pausedAt));
}

function approvalOf(paused: PausedRun, pending: PendingCall, pausedAt: string): ApprovalView {
  const { request } = pending;
  const flagged = request?.flaggedArguments ?? [];
  const texts = paused.provenance?.sources ?? [];
  return {
    runId: paused.runId,
    turn: paused.turn,
    callId: pending.callId,
    toolName: pending.toolName,
    input: pending.input,
    inputDigest: pending.inputDigest,
    ...(request === undefined ? {} : { taintDigest: request.taintDigest, gatedBecause: request.gatedBecause }),
    untrustedSources: (request?.untrustedSources ?? []).map((ref) => sourceView(ref, texts, flagged)),
    flaggedArguments: flagged,
    ...(pending.dataFlow === undefined ? {} : { dataFlow: pending.dataFlow }),
    pausedAt,
  };
}

function sourceView(
  ref: TaintSourceRef,
  texts: readonly TaintSource[],
  flagged: readonly FlaggedArgument[],
): SourceView {
  const text =
    texts.find((source) => source.callId === ref.callId && source.turn === ref.turn && source.toolName === ref.toolName)
      ?.text ?? '';
  // The value the human most needs to see in context: the first argument copied from this source.
  const copied = flagged
    .filter((argument) => argument.foundIn.some((found) => found.callId === ref.callId && found.turn === ref.turn))
    .map((argument) => argument.decoded ?? String(argument.value));
  return { ...ref, ...excerptOf(text, copied) };
}

function excerptOf(text: string, values: readonly string[]): { excerpt: string; truncated: boolean } {
  if (text.length <= EXCERPT_CHARS) return { excerpt: text, truncated: false };
  const at = values.map((value) => text.indexOf(value)).find((index) => index >= 0) ?? 0;
  const start = Math.max(0, Math.min(at - EXCERPT_CHARS / 4, text.length - EXCERPT_CHARS));
  return { excerpt: text.slice(start, start + EXCERPT_CHARS), truncated: true };
}
