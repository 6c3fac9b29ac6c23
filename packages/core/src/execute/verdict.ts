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
  | 'tool_refused';

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
    }
  | {
      readonly kind: 'awaiting_confirmation';
      readonly inputDigest: string;
      /** For a gated call: what the human must be shown; the confirmation must name its `taintDigest`. */
      readonly request?: ConfirmationRequest;
    }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'timed_out'; readonly timeoutMs: number }
  | { readonly kind: 'aborted' };

export type VerdictKind = Verdict['kind'];
