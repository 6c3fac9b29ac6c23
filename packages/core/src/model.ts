import type { JsonObject } from './json.js';
import type { AssistantContentPart, Message } from './messages.js';
import type { ProviderMetadata, ProviderOptions } from './provider-metadata.js';
import type { StreamEvent } from './stream-events.js';

/**
 * A tool as a model sees it: the only things a model chooses by. `inputSchema` is always a JSON Schema
 * object here (Zod / Standard Schema tools are converted once, when the catalogue is built).
 */
export interface ToolDeclaration {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
}

/** Which tools the model may or must call this turn. */
export type ToolChoice = 'auto' | 'none' | 'required' | { readonly type: 'tool'; readonly name: string };

export interface ModelRequest {
  /** System instructions. Adapters place them where their provider wants them. */
  readonly system?: string;
  readonly messages: readonly Message[];
  /**
   * The catalogue's declarations. The loop passes the same frozen array on every turn, so an adapter may
   * cache its translation keyed by this array's identity instead of re-translating every step.
   */
  readonly tools: readonly ToolDeclaration[];
  readonly toolChoice?: ToolChoice;
  /** `false` asks the provider for at most one call per turn, where it supports that switch. */
  readonly parallelToolCalls?: boolean;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly providerOptions?: ProviderOptions;
  readonly signal?: AbortSignal;
}

/**
 * Why a turn ended, unified across providers.
 * - `tool_calls`: the turn holds at least one tool call (Gemini says STOP even then; adapters fix that).
 * - `max_tokens`: output was cut; any tool call in it may be incomplete and must not run.
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

export interface Usage {
  readonly inputTokens: number | undefined;
  readonly outputTokens: number | undefined;
  readonly totalTokens: number | undefined;
  readonly cachedInputTokens?: number | undefined;
  readonly reasoningTokens?: number | undefined;
}

/** One answer from the model: its content (text, reasoning, tool calls in emission order) and why it stopped. */
export interface ModelTurn {
  readonly content: readonly AssistantContentPart[];
  readonly stopReason: StopReason;
  readonly usage: Usage;
  /** Response-level provider data (response id, model version) the adapter may need on the next turn. */
  readonly providerMetadata?: ProviderMetadata;
}

/**
 * What every provider adapter implements. It only translates: neutral request → provider call through the
 * official SDK → neutral turn. It never runs a tool.
 */
export interface Model {
  /** Adapter family, also the key of its entries in provider bags: `anthropic`, `openai`, `google`… */
  readonly provider: string;
  readonly modelId: string;
  generate(request: ModelRequest): Promise<ModelTurn>;
  /** Present on adapters that stream; yields neutral events ending with exactly one `turn-end` or `error`. */
  stream?(request: ModelRequest): AsyncIterable<StreamEvent>;
}
