import type { JsonValue } from '../json/json.js';

/** Where a value at a trusted-only path was found among the run's trusted sources. */
export type TrustedOrigin =
  /** A message the human wrote (its index in the conversation). */
  | { readonly kind: 'user'; readonly message: number }
  /** The system text (the loop's `system`, or a system message of the conversation). */
  | { readonly kind: 'system' }
  /** The output of a tool whose output is trusted. */
  | { readonly kind: 'tool'; readonly toolName: string; readonly callId: string }
  /** A value the human vouched for when deciding a call (typed or chosen). */
  | { readonly kind: 'vouched'; readonly by: string; readonly callId: string; readonly path: string }
  /** A value the application vouched for (`DataFlowOptions.vouched`). */
  | { readonly kind: 'application' };

/** An argument value taken from a quarantined document through a reference (`$doc1.iban`). */
export interface ReferencedArgument {
  /** JSON Pointer of the value in the input. */
  readonly path: string;
  readonly reference: string;
  /** The document (`$doc1`) and the quarantined call that returned it. */
  readonly handle: string;
  readonly toolName: string;
  readonly callId: string;
  /** `false` when the reference was written inside a longer text rather than as the whole value. */
  readonly whole: boolean;
  /** The value the reference stands for (left out of the journal, like every value there). */
  readonly value: JsonValue;
}

/** One value at a trusted-only path, and where it was found. */
export interface CheckedArgument {
  readonly path: string;
  /** The value the tool would receive (a reference resolved). */
  readonly value: JsonValue;
  /** The trusted source holding it; absent when none does (the call is refused, or held for vouching). */
  readonly trustedIn?: TrustedOrigin;
}

/**
 * What the data-flow options found about one call: which values came from quarantined documents, where
 * each value at a trusted-only path was found, and which option refused or held the call. Plain JSON, in a
 * paused call (`PendingCall.dataFlow`), the call's verdict and, without the values, its journal entry.
 */
export interface DataFlowReport {
  readonly references?: readonly ReferencedArgument[];
  readonly checked?: readonly CheckedArgument[];
  /**
   * `trusted-only`: a value at a trusted-only path is in no trusted source; only the human vouching for it
   * (typing or choosing it) lets the call through, a plain approval does not. `plan`: a gated call to a tool
   * outside the run's frozen plan, refused without asking.
   */
  readonly refusedBy?: 'trusted-only' | 'plan';
  /** For `trusted-only`: the paths whose values are in no trusted source. */
  readonly vouchFor?: readonly string[];
  /** For `plan`: the gated tools the frozen plan allows. */
  readonly plan?: readonly string[];
}

/**
 * A report as the journal keeps it: where each value came from, never the values (a store may redact the
 * entry's `input`, and the values of references are a quarantined document's, which the input does not hold).
 */
export interface JournalDataFlow extends Omit<DataFlowReport, 'checked' | 'references'> {
  readonly references?: readonly Omit<ReferencedArgument, 'value'>[];
  readonly checked?: readonly Omit<CheckedArgument, 'value'>[];
}

export function journalDataFlowOf(report: DataFlowReport): JournalDataFlow {
  const { references, checked, ...rest } = report;
  return {
    ...rest,
    ...(references === undefined ? {} : { references: references.map(({ value: _value, ...reference }) => reference) }),
    ...(checked === undefined
      ? {}
      : { checked: checked.map(({ path, trustedIn }) => ({ path, ...(trustedIn ? { trustedIn } : {}) })) }),
  };
}
