import type { ModelTurn } from './model-turn.js';
import type { ProviderMetadata } from './provider-metadata.js';
import type { ProviderPart } from './provider-part.js';
import type { SourcePart } from './source-part.js';

/**
 * Neutral streaming events. Every adapter produces the same sequence shape from its SDK's stream, so the
 * application renders one kind of stream whatever the provider.
 *
 * Tool calls are announced (`tool-call-start`), grow (`tool-call-delta`, raw argument text) and are complete
 * only at `tool-call-end`, which carries the parsed input. A call the provider truncated (max_tokens,
 * length) is listed in `turn-end.incompleteToolCallIds`; a stream that breaks before the provider finished
 * the turn ends with `error` (a retryable `connection` ProviderError) instead. Neither kind of call runs.
 *
 * A `source` event follows the text it supports (a citation, an annotation, a grounding chunk: the same
 * source the turn's text part carries in `sources`). A `provider-part` event announces something the adapter
 * could not give a neutral meaning, kept in the turn as a `provider` part (see `ProviderPart`).
 */
export type StreamEvent =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'reasoning-delta'; readonly text: string; readonly providerMetadata?: ProviderMetadata }
  | { readonly type: 'tool-call-start'; readonly id: string; readonly name: string; readonly index: number }
  | { readonly type: 'tool-call-delta'; readonly id: string; readonly argumentsDelta: string }
  | {
      readonly type: 'tool-call-end';
      readonly id: string;
      readonly name: string;
      readonly input: unknown;
      readonly inputError?: string;
    }
  | { readonly type: 'source'; readonly source: SourcePart }
  | { readonly type: 'provider-part'; readonly part: ProviderPart }
  | { readonly type: 'turn-end'; readonly turn: ModelTurn; readonly incompleteToolCallIds: readonly string[] }
  | { readonly type: 'error'; readonly error: Error };
