import type { CallRecord, ModelCallRecord, Usage } from './trace-types.js';

/** How a call ended up, for colour and filters. */
export type CallCategory = 'ok' | 'tool-error' | 'refused' | 'paused' | 'approved' | 'denied' | 'aborted';

/**
 * One attempt of a call (a paused call has two: the pause, then the run after the human's decision): the
 * trace's call record without what the call itself carries.
 */
export type AttemptView = Omit<CallRecord, 'type' | 'runId' | 'turn' | 'index' | 'callId' | 'tool'>;

export interface CallView {
  /** Unique in the run: `turn:index:callId`. */
  readonly key: string;
  readonly turn: number;
  readonly index: number;
  readonly callId: string;
  readonly tool: string;
  readonly attempts: readonly AttemptView[];
  readonly category: CallCategory;
  /** Parallel lane in its turn (0-based): calls that overlapped in time get different lanes. */
  lane: number;
}

export interface DecisionView {
  readonly callId: string;
  readonly tool: string;
  readonly approved: boolean;
  readonly by: string;
  readonly inputDigest: string;
  readonly at: number;
  readonly note?: string;
  /** For a gated call: the taint digest the approval names (the untrusted sources the human was shown). */
  readonly informedOf?: string;
}

export interface PauseView {
  readonly at: number;
  readonly pending: readonly { readonly callId: string; readonly tool: string; readonly inputDigest: string }[];
}

export interface TurnView {
  readonly turn: number;
  readonly modelCall?: ModelCallRecord;
  readonly calls: CallView[];
  lanes: number;
  readonly pauses: PauseView[];
  readonly decisions: DecisionView[];
  /** The time window the turn's bars are drawn in (model call start to the last first-attempt end). */
  start: number;
  end: number;
}

export interface RunView {
  readonly runId: string;
  readonly label?: string;
  readonly provider?: string;
  readonly model?: string;
  readonly sessionId?: string;
  readonly source: 'trace' | 'journal';
  readonly turns: readonly TurnView[];
  readonly calls: readonly CallView[];
  readonly attempts: number;
  readonly status?: string;
  readonly usage: { readonly input: number; readonly output: number };
  readonly invocations: number;
  readonly start: number;
  readonly end: number;
}

export type { Usage };

/** A call's colour and filter category, from its attempts. */
export function categoryOf(attempts: readonly AttemptView[]): CallCategory {
  const last = attempts.at(-1);
  if (last === undefined) return 'aborted';
  const wasPaused = attempts.some((attempt) => attempt.verdict === 'awaiting_confirmation');
  switch (last.verdict) {
    case 'awaiting_confirmation':
      return 'paused';
    case 'refused':
      return last.reason === 'confirmation_denied' ? 'denied' : 'refused';
    case 'executed':
      if (last.isError) return 'tool-error';
      return wasPaused ? 'approved' : 'ok';
    case 'failed':
    case 'timed_out':
      return 'tool-error';
    case 'aborted':
      return 'aborted';
  }
}

/** Greedy interval partitioning: each call takes the first lane free at its start. */
export function assignLanes(calls: CallView[]): number {
  const laneEnds: number[] = [];
  const ordered = [...calls].sort((a, b) => firstStart(a) - firstStart(b) || a.index - b.index);
  for (const call of ordered) {
    const start = firstStart(call);
    let lane = laneEnds.findIndex((end) => end <= start);
    if (lane === -1) lane = laneEnds.length;
    laneEnds[lane] = firstEnd(call);
    call.lane = lane;
  }
  return Math.max(1, laneEnds.length);
}

export function firstStart(call: CallView): number {
  return call.attempts[0]?.start ?? 0;
}

/** The end of the call's first attempt (a run after approval happens later, outside the turn's window). */
export function firstEnd(call: CallView): number {
  const first = call.attempts[0];
  return first === undefined ? 0 : Math.max(first.end, first.start);
}

/** The gate of a call: from its last attempt that has one (a held call and its run after approval share it). */
export function gateOfCall(call: CallView): NonNullable<AttemptView['gate']> | undefined {
  for (let index = call.attempts.length - 1; index >= 0; index -= 1) {
    const gate = call.attempts[index]?.gate;
    if (gate !== undefined) return gate;
  }
  return undefined;
}

/** Whether the call's output counts as untrusted (it then taints the calls after it), when the trace says. */
export function hasUntrustedOutput(call: CallView): boolean {
  return call.attempts.some((attempt) => attempt.outputTrust === 'untrusted' && attempt.verdict === 'executed');
}
