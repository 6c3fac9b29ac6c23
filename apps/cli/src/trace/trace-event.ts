import type { JsonValue, RefusalReason, VerdictKind } from '@toolcircuit/core';

/** The four checks every call goes through, in order (see core's executor). */
export const CHECKS = ['exists', 'schema', 'right', 'confirmation'] as const;
export type CheckName = (typeof CHECKS)[number];

/**
 * - `pass` / `fail`: the check ran; `pending`: waiting for the human; `skipped`: an earlier check failed;
 * - `n/a`: does not apply (confirmation of a reversible tool), or the loop refused the call before any check.
 */
export type CheckState = 'pass' | 'fail' | 'pending' | 'skipped' | 'n/a';

export type CallChecks = Readonly<Record<CheckName, CheckState>>;

export interface TokenCounts {
  readonly input: number | undefined;
  readonly output: number | undefined;
}

/**
 * What `run` and `demo` show, one event per step, free of anything provider-specific (call ids, response
 * ids, timings): the same run on two backends gives the same events. `--json` prints them as JSON lines.
 */
export type TraceEvent =
  | { readonly type: 'text'; readonly turn: number; readonly text: string }
  | {
      readonly type: 'call';
      readonly turn: number;
      readonly tool: string;
      readonly input: JsonValue | null;
      readonly checks: CallChecks;
      readonly verdict: VerdictKind;
      readonly reason?: RefusalReason;
      /** True when the call comes back after a pause, with the human's decision. */
      readonly resumed: boolean;
    }
  | {
      readonly type: 'confirmation';
      readonly turn: number;
      readonly tool: string;
      readonly input: JsonValue;
      /** First 12 hex digits of the argument digest the human approved or declined. */
      readonly digest: string;
      readonly approved: boolean;
      readonly by: string;
    }
  | ({ readonly type: 'end' } & RunCounts);

/** How a run went, counted over its calls (a paused call that was approved and ran counts once, as executed). */
export interface RunCounts {
  readonly status: 'completed' | 'max_turns' | 'paused' | 'aborted' | 'stopped';
  readonly turns: number;
  readonly calls: number;
  readonly executed: number;
  readonly refused: number;
  readonly refusals: Readonly<Partial<Record<RefusalReason, number>>>;
  /** Calls still waiting for a human when the run stopped. */
  readonly pending: number;
}

/** The end of the trace plus tokens, which differ between providers and so are kept out of trace events. */
export interface RunSummary extends RunCounts {
  readonly tokens: TokenCounts;
}
