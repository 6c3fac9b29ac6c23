import type { DataFlowReport } from '../data-flow/data-flow-report.js';
import type { ConfirmationRequest } from '../provenance/confirmation-request.js';

/** Why the executor (or the loop, for calls it must not run) refused a call before running it. */
export type RefusalReason =
  | 'unknown_tool'
  /** The tool is in the catalogue but was not offered at this step (`activeTools`, `prepareStep`). */
  | 'inactive_tool'
  | 'invalid_input'
  | 'missing_right'
  | 'confirmation_required'
  /** The human said no to a paused call (`resumeLoop`). */
  | 'confirmation_denied'
  /** A second call of one turn reused an id; it gets its own refusal so every request keeps one result. */
  | 'duplicate_call_id'
  /** The turn stopped on max_tokens: its calls may be truncated and are never run. */
  | 'incomplete_call'
  /** A deferred tool the model called before a tool search loaded it. */
  | 'tool_not_loaded'
  /** The application's provenance policy refuses this tool while untrusted output is in the run. */
  | 'untrusted_context'
  /**
   * The tool refused the call itself, having done nothing (`toolRefusal`): e.g. an MCP tool whose server
   * changed its definition since it was pinned.
   */
  | 'tool_refused'
  /**
   * A value at a trusted-only path (`trustedOnly`) is in no trusted source of the run and nobody vouched for
   * it: an approval alone does not let it through, only the human vouching for the value (see `DataFlowReport`).
   */
  | 'untrusted_value'
  /** A gated call to a tool outside the run's plan, frozen when untrusted content arrived (`dataFlow.plan`). */
  | 'unplanned_call'
  /** An argument is a reference to a quarantined document's value that the run does not hold. */
  | 'unknown_reference';

/**
 * What happened to one call. `awaiting_confirmation` exists only in "pause" mode: the call is held back,
 * not refused, until the application brings the human's decision to `resumeLoop`.
 */
export type Verdict =
  | { readonly kind: 'executed'; readonly isError: boolean }
  | {
      readonly kind: 'refused';
      readonly reason: RefusalReason;
      readonly message: string;
      /** For a gated call (untrusted output in the run): what the human must be shown to confirm it. */
      readonly request?: ConfirmationRequest;
      /** Where the argument values came from and which data-flow option refused the call, when one did. */
      readonly dataFlow?: DataFlowReport;
    }
  | {
      readonly kind: 'awaiting_confirmation';
      readonly inputDigest: string;
      /** For a gated call: what the human must be shown; the confirmation must name its `taintDigest`. */
      readonly request?: ConfirmationRequest;
      /**
       * Where the argument values came from (references to quarantined documents, the trusted sources of
       * trusted-only values); with `refusedBy: 'trusted-only'` the call runs only if the human vouches for the
       * values at `vouchFor` (`ConfirmationDecision.vouched`).
       */
      readonly dataFlow?: DataFlowReport;
    }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'timed_out'; readonly timeoutMs: number }
  | { readonly kind: 'aborted' };

export type VerdictKind = Verdict['kind'];
