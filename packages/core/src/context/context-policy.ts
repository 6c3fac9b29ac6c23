import type { Message } from '../messages/messages.js';

/** The turns whose results a context policy sends whole unless it says otherwise. */
export const DEFAULT_KEEP_TURNS = 3;

/**
 * How a long run keeps each model request within a token budget (`LoopOptions.contextPolicy`). It shapes
 * only what is SENT to the model: the run's own messages, `LoopResult`, a paused or interrupted run and the
 * journal keep every result whole. Before each request the circuit estimates the request's input tokens
 * (see `estimatedInputTokens`); when they exceed `maxTokens` it clears the oldest tool results and, when that
 * is not enough and a `summarise` function is given, folds the oldest turns into a summary. The results of
 * the last `keepTurns` turns are always sent whole.
 */
export interface ContextPolicy {
  /**
   * Input tokens one request may hold: the conversation, the system text and the tool declarations, as the
   * provider counts its input. Leave the model's output room outside it.
   */
  readonly maxTokens: number;
  /** The results of the last N model turns are always sent whole (at least 1). Default 3. */
  readonly keepTurns?: number;
  /**
   * Replace old tool results by a short placeholder that names the tool, the call and the size removed (the
   * call itself stays). Default `true`; `false` leaves results whole (only `summarise` then shrinks the past).
   */
  readonly clearToolResults?: boolean;
  /**
   * Tokens a clearing or a summary frees at least, beyond what the request needs to fit: each one changes the
   * start of the request, which a provider's prompt cache must then write again, so it should buy several
   * turns. Default a quarter of `maxTokens`.
   */
  readonly clearAtLeast?: number;
  /** Tools whose results are never cleared (folding into a summary still takes them). */
  readonly keepTools?: readonly string[];
  /**
   * Folds the oldest turns into one summary when clearing results is not enough (or is off). Gets the
   * messages to fold, as the run holds them (results whole), and returns the summary's text. Its text is
   * sent in a user message framed by the circuit, marked as data when any folded content was untrusted
   * (see {@link SummariseInput.untrusted}). A throw, or anything but a string, stops the request as a failed
   * model request does: the error carries the run's state for `continueLoop`.
   */
  readonly summarise?: (input: SummariseInput) => string | Promise<string>;
  /**
   * Let a model that clears old tool results itself do it (Anthropic context editing, `clear_tool_uses`,
   * on the models that support it): the request goes whole, with the policy's budget as the provider's
   * trigger, and the circuit clears nothing itself. Models that cannot get the circuit's own clearing.
   */
  readonly native?: boolean;
  /** Told before each request what the policy did (estimates, results cleared, messages folded). */
  readonly onRequest?: (report: ContextReport) => void;
}

/** What `summarise` is given. */
export interface SummariseInput {
  readonly runId: string;
  /** The 1-based turn whose request needs the room. */
  readonly turn: number;
  /**
   * The messages to fold, in order, as the run holds them: whole exchanges (a call never leaves its result),
   * results whole, without what the data-flow options keep with a result (a quarantined document), which no
   * model is sent.
   */
  readonly messages: readonly Message[];
  /** The summary these messages come after, when earlier turns were folded already: fold it in. */
  readonly previousSummary: string | undefined;
  /**
   * Whether the messages (or the previous summary) hold output of untrusted tools or of the provider's hosted
   * tools. Then the summary is untrusted too: the circuit sends it marked as data (spotlit when the run
   * spotlights), and the run stays tainted whatever the summary says.
   */
  readonly untrusted: boolean;
  readonly signal: AbortSignal | undefined;
}

/** What the policy did for one request (`ContextPolicy.onRequest`). */
export interface ContextReport {
  readonly runId: string;
  readonly turn: number;
  readonly maxTokens: number;
  /** The estimate of the request as the run holds it, nothing cleared or folded. */
  readonly fullTokens: number;
  /** The estimate of the request as sent. */
  readonly sentTokens: number;
  /** Results sent as placeholders in this request (cleared now or before). */
  readonly clearedResults: number;
  /** Messages folded into the summary this request carries (0: none). */
  readonly foldedMessages: number;
  /** A new summary was made for this request. */
  readonly summarised: boolean;
  /** The provider clears results itself (`native`): the request went whole. */
  readonly native: boolean;
  /**
   * The request is still over `maxTokens` after all the policy may do (the last `keepTurns` turns, the
   * caller's own messages or the tools alone are over it): it is sent all the same.
   */
  readonly overBudget: boolean;
}
