import {
  type CallEvent,
  type ConfirmationDecision,
  type ConfirmationMode,
  type JsonValue,
  type LoopOptions,
  type LoopResult,
  type PendingCall,
  type RefusalReason,
  resumeLoop,
  runLoop,
  type VouchedValue,
} from '@toolcircuit/core';
import { callChecks } from '../trace/call-checks.js';
import type { RunSummary, TraceEvent } from '../trace/trace-event.js';

/** The human's answer for one paused call; `undefined` when nobody can be asked. */
export type ConfirmAnswer =
  | {
      readonly approved: boolean;
      readonly by: string;
      readonly note?: string;
      /** Values the human typed for a call held for vouching (`PendingCall.dataFlow.vouchFor`). */
      readonly vouched?: readonly VouchedValue[];
    }
  | undefined;

/** The loop's own options, passed through unchanged: the CLI adds confirmation handling and the trace. */
type PassedLoopOptions = Pick<
  LoopOptions,
  | 'model'
  | 'catalogue'
  | 'session'
  | 'messages'
  | 'system'
  | 'maxTurns'
  | 'concurrency'
  | 'toolTimeoutMs'
  | 'journal'
  | 'signal'
>;

export interface DriveRunOptions extends PassedLoopOptions {
  /**
   * `pause` (the CLI's default): irreversible calls wait for `confirm`. `refuse`: they are refused at once
   * and the model is told, for runs where nobody can answer. Required here, unlike in the loop.
   */
  readonly confirmation: ConfirmationMode;
  readonly confirm: (pending: PendingCall, turn: number) => Promise<ConfirmAnswer>;
  readonly emit: (event: TraceEvent) => void;
  /** The model answered a turn (before its calls run): for a progress indicator. */
  readonly onTurn?: (turn: number, callCount: number) => void;
  /** The loop's entry points to use (e.g. traced ones from @toolcircuit/otel); core's by default. */
  readonly loop?: { readonly runLoop: typeof runLoop; readonly resumeLoop: typeof resumeLoop };
}

export interface DriveRunResult {
  readonly result: LoopResult;
  readonly summary: RunSummary;
}

/**
 * One run as the CLI shows it: the loop in pause mode, each paused call put to `confirm`, then
 * `resumeLoop` with the answers, until the run completes or nobody can answer. Emits the neutral trace.
 */
export async function driveRun(options: DriveRunOptions): Promise<DriveRunResult> {
  const counts = { calls: 0, executed: 0, refused: 0 };
  const refusals: Partial<Record<RefusalReason, number>> = {};
  const resumedTurns = new Set<number>();

  const onCall = (event: CallEvent) => {
    const resumed = resumedTurns.has(event.turn) && event.verdict.kind !== 'awaiting_confirmation';
    if (!resumed) counts.calls += 1;
    const verdict = event.verdict;
    if (verdict.kind === 'executed' || verdict.kind === 'failed' || verdict.kind === 'timed_out') counts.executed += 1;
    if (verdict.kind === 'refused') {
      counts.refused += 1;
      refusals[verdict.reason] = (refusals[verdict.reason] ?? 0) + 1;
    }
    const irreversible = options.catalogue.get(event.call.name)?.definition.irreversible;
    options.emit({
      type: 'call',
      turn: event.turn,
      tool: event.call.name,
      input: toJson(event.call.input),
      checks: callChecks(verdict, irreversible),
      verdict: verdict.kind,
      ...(verdict.kind === 'refused' ? { reason: verdict.reason } : {}),
      resumed,
    });
  };
  const loopOptions = {
    model: options.model,
    catalogue: options.catalogue,
    session: options.session,
    confirmation: options.confirmation,
    ...(options.system === undefined ? {} : { system: options.system }),
    ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: options.toolTimeoutMs }),
    ...(options.journal === undefined ? {} : { journal: options.journal }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    hooks: {
      onTurn: ({ turn, modelTurn }: { turn: number; modelTurn: LoopResult['turns'][number] }) => {
        const text = modelTurn.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
        if (text.trim() !== '') options.emit({ type: 'text', turn, text });
        options.onTurn?.(turn, modelTurn.content.filter((part) => part.type === 'tool_call').length);
      },
      onCall,
    },
  };

  const loop = options.loop ?? { runLoop, resumeLoop };
  let result = await loop.runLoop({ ...loopOptions, messages: options.messages });
  while (result.status === 'paused' && result.paused !== undefined) {
    const paused = result.paused;
    const decisions: ConfirmationDecision[] = [];
    for (const pending of paused.pending) {
      const answer = await options.confirm(pending, paused.turn);
      if (answer === undefined) break;
      options.emit({
        type: 'confirmation',
        turn: paused.turn,
        tool: pending.toolName,
        input: pending.input,
        digest: pending.inputDigest.slice(0, 12),
        approved: answer.approved,
        by: answer.by,
      });
      decisions.push({
        callId: pending.callId,
        approved: answer.approved,
        // The digest the human was shown: resumeLoop refuses an approval of other arguments.
        inputDigest: pending.inputDigest,
        ...(answer.note === undefined ? {} : { note: answer.note }),
        ...(answer.vouched === undefined ? {} : { vouched: answer.vouched }),
      });
    }
    if (decisions.length < paused.pending.length) break;
    resumedTurns.add(paused.turn);
    result = await loop.resumeLoop(paused, decisions, loopOptions);
  }

  const summary: RunSummary = {
    status: result.status,
    turns: result.turns.length,
    calls: counts.calls,
    executed: counts.executed,
    refused: counts.refused,
    refusals,
    pending: result.status === 'paused' ? (result.paused?.pending.length ?? 0) : 0,
    tokens: { input: result.usage.inputTokens, output: result.usage.outputTokens },
  };
  const { tokens: _tokens, ...end } = summary;
  options.emit({ type: 'end', ...end });
  return { result, summary };
}

function toJson(value: unknown): JsonValue | null {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value)) as JsonValue;
  } catch {
    return null;
  }
}
