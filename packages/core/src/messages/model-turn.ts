import type { AssistantContentPart } from './messages.js';
import type { ProviderMetadata } from './provider-metadata.js';
import type { UntrustedContent } from './untrusted-content.js';
import type { Usage } from './usage.js';

/**
 * Why a turn ended, unified across providers.
 * - `tool_calls`: the turn holds at least one tool call (Gemini says STOP even then; adapters fix that).
 * - `max_tokens`: output was cut; any tool call in it may be incomplete and must not run.
 * - `pause`: the provider paused a long turn (Anthropic `pause_turn`); the loop sends it back as it is so the
 *   provider carries on, instead of taking it for the model's answer.
 */
export type UnifiedStopReason =
  | 'end_turn'
  | 'tool_calls'
  | 'max_tokens'
  | 'stop_sequence'
  | 'content_filter'
  | 'refusal'
  | 'pause'
  | 'context_window_exceeded'
  | 'malformed_tool_call'
  | 'error'
  | 'other';

export interface StopReason {
  readonly unified: UnifiedStopReason;
  /** The provider's own value (`tool_use`, `tool_calls`, `STOP`, `incomplete:max_output_tokens`…), kept for audits. */
  readonly raw: string | undefined;
}

/** One answer from the model: its content (text, reasoning, tool calls in emission order) and why it stopped. */
export interface ModelTurn {
  readonly content: readonly AssistantContentPart[];
  readonly stopReason: StopReason;
  readonly usage: Usage;
  /**
   * Deferred tools the provider's own tool search loaded during this turn (adapters in native tool-search
   * mode): the loop loads them as its own search would, before this turn's calls are checked.
   */
  readonly loadedTools?: readonly string[];
  /** Response-level provider data (response id, model version) the adapter may need on the next turn. */
  readonly providerMetadata?: ProviderMetadata;
  /**
   * What the provider's hosted tools put into the model's context during this turn (search and fetch
   * results, code output…), with where it stood among the turn's parts: untrusted content, which gates the
   * calls made after it (see {@link UntrustedContent}). Absent when there was none. Adapters set it; the loop
   * copies it onto the turn's assistant message.
   */
  readonly untrustedContent?: readonly UntrustedContent[];
}
